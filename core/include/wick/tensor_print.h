// core/include/wick/tensor_print.h: std::ostream's << for tensors, dtypes, devices and scalars.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/scalar.h"
#include "wick/tensor.h"

namespace wick {

// Note [Printing tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~
// C++ prints what Python's repr() shows, so one tensor reads the same from either:
// "tensor([[1., 2.],\n        [3., 4.]], dtype=wick.float64)". The values are laid out
// as PyTorch lays them out (one format for every element, so columns line up: integral
// floats as "1.", others with 4 decimals, scientific when their range is wide; more than
// 1000 elements summarised with "..."), followed by the size when there are no elements,
// the device when it is not the CPU, and the dtype unless it is float32, int64 or bool.
// Python's Tensor.__repr__ is this function; tests/cpp/test_tensor_print.cpp and the
// Python tests hold the strings PyTorch gives.
std::string tensor_repr(const Tensor& t);

// How tensor_repr lays values out, as torch.set_printoptions sets it: decimals of floats, the number of
// elements above which a tensor is summarised with "...", the elements kept at each end of a summarised
// dim, the characters of a line, and scientific notation forced on or off (nullopt: chosen by the values'
// range). Process-wide; the defaults are PyTorch's.
struct PrintOptions {
  int64_t precision = 4;
  double threshold = 1000;
  int64_t edgeitems = 3;
  int64_t linewidth = 80;
  std::optional<bool> sci_mode;
};
PrintOptions print_options();
// Sets them; a negative precision or edge-item count, or a linewidth below 1, is a ValueError.
void set_print_options(const PrintOptions& options);
std::ostream& operator<<(std::ostream& os, const Tensor& t);
// "wick.float32", as Python's repr(wick.float32).
std::ostream& operator<<(std::ostream& os, DType dtype);
// "cpu", "cuda:0", as Python's str() of a device.
std::ostream& operator<<(std::ostream& os, const Device& device);
// As Python's repr() of the number: True, 2, 2.5, 1e-05, inf.
std::ostream& operator<<(std::ostream& os, const Scalar& value);

}  // namespace wick
