// python_ext/unique.cpp: unique(), whose flags decide whether it returns a tensor or a tuple, as torch.unique.
#include "errors.h"
#include "no_gil.h"
#include "python_impls.h"
#include "wick/ops/_unique2.h"
#include "wrap.h"

namespace wick {
namespace python {
namespace impl {

PyObject* unique(const Tensor& self, bool sorted, bool return_inverse, bool return_counts,
                 std::optional<int64_t> dim) {
  std::tuple<Tensor, Tensor, Tensor> result;
  {
    NoGil nogil(true, {&self});
    result = nogil.restore(_unique2(nogil(self), sorted, return_inverse, return_counts, dim));
  }
  auto& [output, inverse, counts] = result;
  if (!return_inverse && !return_counts) return wrap(std::move(output));
  // A plain tuple, as torch.unique's: output, then what was asked for.
  Tensor picked[3] = {std::move(output)};
  size_t n = 1;
  if (return_inverse) picked[n++] = std::move(inverse);
  if (return_counts) picked[n++] = std::move(counts);
  return wrap_tuple(picked, n);
}

}  // namespace impl
}  // namespace python
}  // namespace wick
