// core/src/empty_strided.cpp: empty_strided, an uninitialised tensor of given sizes and strides.
#include "wick/core_ops.h"
#include "wick/ops/empty.h"
#include "wick/ops/empty_strided.h"
#include "wick/overflow.h"

namespace wick {

// The storage holds one element past the farthest that the strides reach (none where a size is 0),
// so elements may overlap (a stride 0) or leave gaps, as PyTorch's empty_strided allows.
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<DType> dtype, std::optional<Device> device) {
  WICK_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
             ") must match dimensionality of strides (", stride.size(), ")");
  for (int64_t s : stride) WICK_CHECK(s >= 0, "Negative strides are not supported, got strides ", shape_str(stride));
  const int64_t numel = checked_numel(size);
  std::optional<int64_t> extent = numel == 0 ? 0 : 1;
  for (size_t d = 0; d < size.size() && numel > 0 && extent; ++d) {
    extent = offset_checked(*extent, size[d] - 1, stride[d]);
  }
  if (!extent) {
    throw OutOfMemoryError("Storage size calculation overflowed with sizes=" + shape_str(size) +
                           " and strides=" + shape_str(stride));
  }
  const Tensor flat = empty({*extent}, dtype, device);
  return make_tensor(flat.storage(), flat.dtype(), size.vec(), stride.vec(), 0);
}

}  // namespace wick
