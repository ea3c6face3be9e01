// core/src/properties.cpp: a tensor's geometry as the declared ops report it.
#include "wick/ops/data_ptr.h"
#include "wick/ops/dim.h"
#include "wick/ops/is_contiguous.h"
#include "wick/ops/numel.h"
#include "wick/ops/storage_offset.h"
#include "wick/ops/stride.h"

namespace wick {

DimVector stride(const Tensor& self) { return self.strides().vec(); }
int64_t stride(const Tensor& self, int64_t dim) { return self.stride(dim); }
int64_t storage_offset(const Tensor& self) { return self.storage_offset(); }
int64_t dim(const Tensor& self) { return self.dim(); }
int64_t numel(const Tensor& self) { return self.numel(); }
// preserve_format asks about row-major order, as in PyTorch.
bool is_contiguous(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  if (!memory_format || *memory_format == MemoryFormat::Contiguous || *memory_format == MemoryFormat::Preserve) {
    return self.is_contiguous();
  }
  return is_contiguous_as(self.sizes(), self.strides(), *memory_format);
}
int64_t data_ptr(const Tensor& self) { return int64_t(reinterpret_cast<intptr_t>(self.data_ptr())); }

}  // namespace wick
