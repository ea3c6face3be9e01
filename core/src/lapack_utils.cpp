// core/src/lapack_utils.cpp: checks and working copies for the LAPACK-backed ops (lapack_utils.h).
#include "lapack_utils.h"

#include <climits>
#include <string>
#include <utility>

#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/transpose.h"

namespace wick::detail {

void check_matrices(const Tensor& a) {
  WICK_CHECK_VALUE(a.defined(), "expected a tensor, got None");
  check_cpu(a);
  WICK_CHECK(a.dim() >= 2, "The input tensor A must have at least 2 dimensions.");
  WICK_CHECK(a.dtype() == DType::Float32 || a.dtype() == DType::Float64,
             "Expected a float32 or float64 tensor as input. Got ", dtype_name(a.dtype()));
}

void check_square(const Tensor& a) {
  check_matrices(a);
  WICK_CHECK(a.size(-1) == a.size(-2), "A must be batches of square matrices, but they are ", a.size(-2), " by ",
             a.size(-1), " matrices");
}

int lapack_int(int64_t n) {
  WICK_CHECK(n <= INT_MAX, "a matrix dimension of ", n, " is more than LAPACK takes (", INT_MAX, ")");
  return int(n);
}

DimVector batch_shape(const Tensor& a) {
  return DimVector(a.sizes().begin(), a.sizes().end() - 2);
}

int64_t batch_count(const Tensor& a) {
  return checked_numel(batch_shape(a));
}

Tensor row_major_copy(const Tensor& a) {
  Tensor copy = empty(a.sizes(), a.dtype(), a.device());
  copy_(copy, a);
  return copy;
}

Tensor column_major_copy(const Tensor& a) {
  return row_major_copy(transpose(a, -2, -1));
}

void throw_for_matrix(const Tensor& input, int64_t index, const std::string& what) {
  if (input.dim() > 2) throw Error(str_cat("(Batch element ", index, "): ", what));
  throw Error(what);
}

std::pair<int64_t, int> first_failure(const Tensor& info) {
  const int* data = info.data<int>();
  for (int64_t i = 0; i < info.numel(); ++i) {
    if (data[i] != 0) return {i, data[i]};
  }
  return {-1, 0};
}

}  // namespace wick::detail
