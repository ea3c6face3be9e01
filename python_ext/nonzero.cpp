// python_ext/nonzero.cpp: nonzero(), whose as_tuple decides whether it returns a tensor or a tuple, as torch.nonzero.
#include "no_gil.h"
#include "python_impls.h"
#include "wick/indexing.h"
#include "wick/ops/unbind.h"
#include "wick/ops/unsqueeze.h"
#include "wrap.h"

namespace wick {
namespace python {
namespace impl {

PyObject* nonzero(const Tensor& self, bool as_tuple) {
  Tensor coords;
  {
    NoGil nogil(true, {&self});
    // A 0-d tensor is a vector of one for the tuple: one column, as NumPy's nonzero.
    const Tensor& input = nogil(self);
    coords = nogil.restore(wick::nonzero(as_tuple && input.dim() == 0 ? unsqueeze(input, 0) : input));
  }
  if (!as_tuple) return wrap(std::move(coords));
  std::vector<Tensor> columns = unbind(coords, 1);
  return wrap_tuple(columns.data(), columns.size());
}

}  // namespace impl
}  // namespace python
}  // namespace wick
