// core/include/wick/memory_format.h: the layouts in memory a new tensor may be asked for (memory_format=).
#pragma once

#include <cstdint>

#include "wick/array_ref.h"

namespace wick {

// PyTorch's memory formats: the order in which a dense tensor's dims lie in memory.
enum class MemoryFormat : uint8_t {
  Contiguous,      // row-major
  Preserve,        // an input's, where it is dense; else the dense layout closest to it
  ChannelsLast,    // a 4-d (N, C, H, W) tensor laid out as (N, H, W, C)
  ChannelsLast3d,  // a 5-d (N, C, D, H, W) tensor laid out as (N, D, H, W, C)
};

// "contiguous_format", "preserve_format", "channels_last" or "channels_last_3d": the name in wick.
const char* memory_format_name(MemoryFormat format);

// The strides of a dense tensor of `sizes` laid out in `format` (not Preserve): a RuntimeError
// for a channels-last format and the wrong number of dims, or strides past int64.
DimVector memory_format_strides(IntArrayRef sizes, MemoryFormat format);

// Whether a tensor of `sizes` and `strides` is laid out densely in `format` (not Preserve): as
// PyTorch, dims of size 1 may have any stride, and a tensor of the wrong rank is not.
bool is_contiguous_as(IntArrayRef sizes, IntArrayRef strides, MemoryFormat format);

}  // namespace wick
