// core/src/memory_format.cpp: the layouts of the memory formats (wick/memory_format.h).
#include "wick/memory_format.h"

#include "wick/error.h"
#include "wick/tensor.h"

namespace wick {
namespace {

// The dims of a tensor of `ndim` dims in the order `format` lays them out, innermost first;
// none for a channels-last format and another rank.
DimVector innermost_first(size_t ndim, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::ChannelsLast: return ndim == 4 ? DimVector{1, 3, 2, 0} : DimVector();
    case MemoryFormat::ChannelsLast3d: return ndim == 5 ? DimVector{1, 4, 3, 2, 0} : DimVector();
    case MemoryFormat::Contiguous:
    case MemoryFormat::Preserve: break;
  }
  DimVector order(ndim);
  for (size_t k = 0; k < ndim; ++k) order[k] = int64_t(ndim - 1 - k);
  return order;
}

}  // namespace

const char* memory_format_name(MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::Preserve: return "preserve_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::ChannelsLast3d: return "channels_last_3d";
  }
  return "unknown";
}

DimVector memory_format_strides(IntArrayRef sizes, MemoryFormat format) {
  WICK_INTERNAL_ASSERT(format != MemoryFormat::Preserve, "preserve_format has no strides of its own");
  if (format == MemoryFormat::Contiguous) return contiguous_strides(sizes);
  const DimVector order = innermost_first(sizes.size(), format);
  WICK_CHECK(!order.empty(), "required rank ", format == MemoryFormat::ChannelsLast ? 4 : 5, " tensor to use ",
             memory_format_name(format), " format");
  // The row-major strides of the dims taken outermost first in the format's order, given back to each dim.
  const size_t n = order.size();
  DimVector laid_out(n);
  for (size_t k = 0; k < n; ++k) laid_out[n - 1 - k] = sizes[size_t(order[k])];
  const DimVector dense = contiguous_strides(laid_out);
  DimVector strides(n);
  for (size_t k = 0; k < n; ++k) strides[size_t(order[k])] = dense[n - 1 - k];
  return strides;
}

bool is_contiguous_as(IntArrayRef sizes, IntArrayRef strides, MemoryFormat format) {
  WICK_INTERNAL_ASSERT(format != MemoryFormat::Preserve, "preserve_format is no layout to compare with");
  const DimVector order = innermost_first(sizes.size(), format);
  if (order.size() != sizes.size() || (format != MemoryFormat::Contiguous && sizes.empty())) return false;
  int64_t expected = 1;
  bool past_int64 = false;  // then no stride can be expected (sizes after a 0 may multiply past int64)
  for (int64_t d : order) {
    const int64_t size = sizes[size_t(d)];
    if (size == 1) continue;
    if (past_int64 || strides[size_t(d)] != expected) return false;
    past_int64 = __builtin_mul_overflow(expected, size, &expected);
  }
  return true;
}

}  // namespace wick
