// python_ext/arg_parser.h: the argument-parsing runtime behind every generated wrapper.
//
// Note [Argument parsing]
// ~~~~~~~~~~~~~~~~~~~~~~~
// Each generated wrapper owns a static ArgParser built from tables the
// generator wrote (one SignatureSpec per overload). parse() matches the
// FASTCALL arguments against the overloads in declaration order, checking
// types without converting, and records borrowed pointers in a ParsedArgs; the
// wrapper then converts each argument with the accessor for its type. Nothing
// is allocated per call. When no overload matches, parse() works out why each
// refused the call (a slower second pass, off the per-call path) and raises TypeError
// with CPython's wording for count and keyword errors and, for type errors,
// every accepted signature. A call without keywords, the common case, is matched
// by position alone (match_positional()).
#pragma once

#include <Python.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "arg_kinds.h"
#include "generator_object.h"
#include "memory_format_object.h"
#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/scalar.h"
#include "tensor_type.h"
#include "wick/tensor.h"
#include "wick/tensor_list.h"

namespace wick {
namespace python {

enum class DefaultKind : uint8_t { Required, None, Int, Float, Bool };

struct ParamSpec {
  const char* name;
  ArgKind kind;
  bool optional;    // accepts None
  bool kwarg_only;
  DefaultKind default_kind;
  double default_value;
};

struct SignatureSpec {
  const ParamSpec* params;
  int nparams;
  const char* text;  // "(Tensor other, *, Number alpha=1)", for error messages
};

constexpr int kMaxParams = 10;
constexpr int kMaxOverloads = 8;

// A Tensor[] argument, as core sees it (Note [Tensor lists] in wick/tensor_list.h):
// pointers to the tensors inside the Python objects of a tuple, without a
// reference-count increment per tensor. A list is first copied into a tuple
// that the TensorList owns, so that another thread changing the list while
// the GIL is released cannot free a tensor the call is using. It lives in the
// wrapper's frame, outside the GIL release, and is destroyed with the GIL held.
class TensorList {
 public:
  // `seq` is a list or tuple; any element that is not a tensor is a TypeError naming argument `index`.
  TensorList(PyObject* seq, int index);
  ~TensorList() { Py_XDECREF(owned_); }
  TensorList(const TensorList&) = delete;
  TensorList& operator=(const TensorList&) = delete;

  operator TensorListRef() const { return TensorListRef(tensors_.data(), tensors_.size()); }  // NOLINT
  // Puts `make(t)` in place of each tensor t, held by the list (Note [Tensors read without the GIL]).
  template <typename Make>
  void replace(Make make) {
    replaced_.reserve(tensors_.size());
    for (const Tensor*& t : tensors_) t = &replaced_.emplace_back(make(*t));
  }

 private:
  PyObject* owned_ = nullptr;  // the tuple copied from a list
  SmallVector<const Tensor*, 8> tensors_;
  std::vector<Tensor> replaced_;
};

// As worth_releasing() (errors.h), counting the tensors of Tensor[] arguments too, and keeping the GIL
// for a call autograd records.
bool worth_releasing(std::initializer_list<const Tensor*> tensors, std::initializer_list<const TensorList*> lists);

// Note [Small ints]: an exact int of one digit (under 2**30 in size) is read in
// place, as CPython's own fast paths read it; any other goes through
// PyLong_AsLongLong, which also calls __index__.
inline bool small_int(PyObject* obj) {
#if PY_VERSION_HEX >= 0x030C0000
  return PyLong_CheckExact(obj) && PyUnstable_Long_IsCompact(reinterpret_cast<PyLongObject*>(obj));
#else
  return PyLong_CheckExact(obj) && Py_ABS(Py_SIZE(obj)) <= 1;
#endif
}

// The value of an int for which small_int() holds.
inline int64_t small_int_value(PyObject* obj) {
#if PY_VERSION_HEX >= 0x030C0000
  return int64_t(PyUnstable_Long_CompactValue(reinterpret_cast<PyLongObject*>(obj)));
#else
  return int64_t(Py_SIZE(obj)) * int64_t(reinterpret_cast<PyLongObject*>(obj)->ob_digit[0]);
#endif
}

class ParsedArgs {
 public:
  const Tensor& tensor(int i) const;
  // A default, a Python int of one digit (Note [Small ints]) or a float inline, anything else out of line.
  Scalar scalar(int i) const {
    PyObject* obj = args_[i];
    if (!obj) {
      const ParamSpec& p = sig_->params[i];
      if (p.default_kind == DefaultKind::Float) return Scalar(p.default_value);
      if (p.default_kind == DefaultKind::Bool) return Scalar(p.default_value != 0);
      return Scalar(int64_t(p.default_value));
    }
    if (PyFloat_CheckExact(obj)) return Scalar(PyFloat_AS_DOUBLE(obj));
    if (small_int(obj)) return Scalar(small_int_value(obj));
    return scalar_general(i);
  }
  std::optional<Scalar> scalar_optional(int i) const;
  int64_t toint(int i) const;
  std::optional<int64_t> toint_optional(int i) const;
  DimVector intlist(int i) const;
  std::optional<DimVector> intlist_optional(int i) const;
  double todouble(int i) const;
  std::optional<double> todouble_optional(int i) const;
  bool tobool(int i) const;
  DType dtype(int i) const;
  std::optional<DType> dtype_optional(int i) const;
  Device device(int i) const;
  std::optional<Device> device_optional(int i) const;
  MemoryFormat memory_format(int i) const { return to_memory_format(args_[i]); }
  std::optional<MemoryFormat> memory_format_optional(int i) const;
  TensorList tensorlist(int i) const { return TensorList(args_[i], i); }
  // Copies: None elements are nullopt.
  std::vector<std::optional<Tensor>> optional_tensorlist(int i) const;
  // Valid while the argument lives, which is the whole call.
  std::string_view string(int i) const;
  std::optional<std::string_view> string_optional(int i) const;
  // Held until the call returns; null for None (the default generator).
  GeneratorArg generator(int i) const { return GeneratorArg(args_[i]); }
  PyObject* object(int i) const { return args_[i]; }
  // The Python object given for parameter i (nullptr when defaulted).
  PyObject* raw(int i) const { return args_[i]; }

 private:
  friend class ArgParser;
  bool absent(int i) const { return args_[i] == nullptr || args_[i] == Py_None; }
  Scalar scalar_general(int i) const;

  const SignatureSpec* sig_ = nullptr;
  PyObject* args_[kMaxParams];
  // When a lone int[] parameter takes its sizes as varargs (x.view(2, 3)).
  PyObject* const* varargs_ = nullptr;
  Py_ssize_t nvarargs_ = 0;
  int varargs_index_ = -1;
};

class ArgParser {
 public:
  ArgParser(const char* name, const SignatureSpec* sigs, int nsigs);

  // Returns the index of the first matching overload, or -1 with TypeError set; or throws TypeError, for
  // guarded() to name the binding (Note [Op names in messages]). Called only inside guarded(name, ...).
  int parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, ParsedArgs& out) const;

 private:
  // Changed: match() refused the call, and a second look finds nothing wrong with it: Python code
  // run while the arguments were checked (a __len__, an __index__) changed one of them.
  enum class Fail : uint8_t { None, TooMany, Missing, UnknownKeyword, Duplicate, Type, Changed };
  // The per-call path: whether overload `s` takes these arguments, recorded in `out` if so.
  bool match(int s, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, ParsedArgs& out) const;
  // match() for a call without keywords.
  bool match_positional(int s, PyObject* const* args, Py_ssize_t nargs, ParsedArgs& out) const;
  // The error path, once no overload matched: why overload `s` refused the call,
  // checking in CPython's order (count, keywords, missing, types).
  Fail diagnose(int s, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, int* culprit) const;
  int take_positional(int s, PyObject* const* args, Py_ssize_t nargs, ParsedArgs& out) const;
  bool sizes_as_varargs(int s, PyObject* const* args, Py_ssize_t nargs) const;
  int keyword_index(int s, PyObject* key) const;  // -1 when overload `s` has no such parameter
  // Raises TypeError for a call no overload took, given why each refused it.
  void raise(const Fail* fails, const int* culprits, PyObject* const* args, Py_ssize_t nargs,
             PyObject* kwnames) const;

  const char* name_;
  const SignatureSpec* sigs_;
  int nsigs_;
  PyObject* interned_[kMaxOverloads][kMaxParams];  // keyword names, compared by identity first
  int npos_[kMaxOverloads];                         // how many parameters each overload takes by position
  int nneeded_[kMaxOverloads];  // how many positional arguments it needs without keywords (kMaxParams + 1: some)
};

// What kind of Python number `obj` is: bool, int and float, and NumPy's
// scalars and 0-d arrays (by __index__ and __float__). Tensors are not numbers.
enum class NumberKind : uint8_t { None, Bool, Int, Float };
NumberKind number_kind(PyObject* obj);


}  // namespace python
}  // namespace wick
