// python_ext/no_gil.h: the GIL released around a call into core, which then works on aliases of its tensors.
//
// Note [Tensors read without the GIL]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// While a thread has released the GIL, other threads run Python code, and may
// change the geometry of a tensor it uses: an out= call resizes its output,
// swapping in new sizes and storage. Read in the middle of that, sizes and
// storage disagree, or the storage is already freed. So a wrapper that
// releases the GIL hands core aliases of its tensors (wick::alias: the same
// storage, kept alive, with geometry of their own), made while it held the
// GIL. Once it holds the GIL again, it copies the geometry of each alias that
// core changed (an out= resize) back to the tensor the alias stands for, and
// turns aliases that core returned back into those tensors. So the geometry of
// a tensor that Python can see changes only under the GIL, and code without
// the GIL reads geometry that no other thread writes. Element values are
// another matter: threads writing one storage at once race, as in PyTorch and
// NumPy, but in memory that stays allocated. So do two calls that resize one
// tensor: the last to take the GIL back wins.
#pragma once

#include <Python.h>

#include <array>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "arg_parser.h"
#include "wick/tensor.h"

namespace wick {
namespace python {

class NoGil {
 public:
  // With `release` false, a no-op. Otherwise it aliases `tensors` and the tensors inside
  // `lists` (Tensor[] and Tensor?[] arguments, out= tuples: each replaced in place by its
  // alias), then releases the GIL.
  template <typename... Lists>
  NoGil(bool release, std::initializer_list<const Tensor*> tensors, Lists&... lists) {
    if (!release) return;
    for (const Tensor* t : tensors) aliased(*t);
    (pin(lists), ...);
    state_ = PyEval_SaveThread();
  }
  ~NoGil() {
    if (state_) take_back();
  }
  NoGil(const NoGil&) = delete;
  NoGil& operator=(const NoGil&) = delete;

  // What the call takes in place of `t`, one of `tensors`: its alias, or `t` when the GIL is kept.
  const Tensor& operator()(const Tensor& t) const {
    if (state_) {
      for (const Aliased& a : aliases_) {
        if (a.tensor.is_same(t)) return a.stand_in;
      }
    }
    return t;
  }

  // A result in which the aliases core returned are the tensors they stand for again.
  Tensor restore(Tensor t) const;
  std::vector<Tensor> restore(std::vector<Tensor> ts) const {
    for (Tensor& t : ts) t = restore(std::move(t));
    return ts;
  }
  template <typename... Ts>
  std::tuple<Ts...> restore(std::tuple<Ts...> ts) const {
    std::apply([this](auto&... t) { ((t = restore(std::move(t))), ...); }, ts);
    return ts;
  }
  template <typename T>
  T restore(T value) const { return value; }  // numbers, sizes: nothing to restore

 private:
  // The alias of `t`, made on first use (one per TensorImpl, so that a tensor passed
  // twice is still one tensor), or `t` itself when it is undefined.
  Tensor aliased(const Tensor& t);
  // Takes the GIL back, and copies changed geometry back from the aliases.
  void take_back();
  void pin(TensorList& list);
  void pin(std::vector<std::optional<Tensor>>& list);
  template <size_t N>
  void pin(std::array<Tensor, N>& tensors) {
    for (Tensor& t : tensors) t = aliased(t);
  }
  template <typename List>
  void pin(std::optional<List>& list) {
    if (list) pin(*list);
  }

  struct Aliased {
    Tensor tensor;    // as Python sees it
    Tensor stand_in;  // its alias, which the call gets
    // The alias's geometry when it was made: a change is the call's own, to be copied back (another
    // thread may have changed the tensor since, and that is not undone).
    Storage storage;
    DimVector sizes, strides;
    int64_t offset;
  };
  std::vector<Aliased> aliases_;
  PyThreadState* state_ = nullptr;
};

}  // namespace python
}  // namespace wick
