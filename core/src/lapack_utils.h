// core/src/lapack_utils.h: what the LAPACK-backed ops share: checks of their matrices, working copies in the
// layout LAPACK wants, and a loop over the matrices of a batch. See Note [Row-major matrices in LAPACK].
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include "lapack.h"
#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/tensor.h"

namespace wick::detail {

// Note [Row-major matrices in LAPACK]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// LAPACK reads matrices column-major; wick's are row-major. The bytes of a row-major m x n matrix A are the
// bytes of a column-major n x m matrix: A^T. So an op hands LAPACK a contiguous copy of its input (LAPACK
// overwrites what it is given) and, where the algebra allows, works on A^T and reads its results back row-major,
// which transposes them again for free:
//   - det, slogdet and solve (inv too: it solves A X = I) factor A^T = P L U: det(A^T) = det(A), and getrs('T')
//     solves (A^T)^T X = B. PyTorch factors A^T too: the zero pivot that inv's error names is A^T's;
//   - cholesky and eigh take a symmetric matrix, of which A^T is the other triangle: 'U' of A^T is 'L' of A;
//   - svd factors A^T = U' S V'^T: its U', read row-major, is Vh of A, and its V'^T is U of A.
// Where A itself must be factored (QR), the op copies A column-major (column_major_copy) and transposes the
// results back.

// RuntimeError unless `a` holds matrices (at least 2 dims) of float32 or float64 on the CPU.
void check_matrices(const Tensor& a);
// check_matrices, and each matrix square.
void check_square(const Tensor& a);
// A matrix dimension as the int LAPACK takes; RuntimeError when it does not fit.
int lapack_int(int64_t n);
// The number of matrices in a batch of shape (..., rows, cols).
int64_t batch_count(const Tensor& a);
// The batch dims of a, (...).
DimVector batch_shape(const Tensor& a);
// A new contiguous tensor of a's values, laid out row-major: each matrix is column-major a^T.
Tensor row_major_copy(const Tensor& a);
// A new tensor of shape (..., cols, rows) whose matrices hold a's column-major: each matrix is a as LAPACK reads it.
Tensor column_major_copy(const Tensor& a);
// RuntimeError that says which matrix of the batch (when there is one) failed, and `what` of it.
[[noreturn]] void throw_for_matrix(const Tensor& input, int64_t index, const std::string& what);
// The first matrix whose info (an int32 tensor of the batch shape) is nonzero, and its info; -1 when none is.
std::pair<int64_t, int> first_failure(const Tensor& info);

// fn(TypeTag<T>{}) for the float32 or float64 type of a checked tensor.
template <typename Fn>
decltype(auto) dispatch_lapack(DType d, Fn&& fn) {
  if (d == DType::Float32) return fn(TypeTag<float>{});
  WICK_INTERNAL_ASSERT(d == DType::Float64, "not a LAPACK dtype: ", dtype_name(d));
  return fn(TypeTag<double>{});
}

// LAPACK's info: negative means an argument wick passed was wrong, a bug of wick's.
inline void check_lapack_arguments(const char* routine, int info) {
  WICK_INTERNAL_ASSERT(info >= 0, "LAPACK's ", routine, " rejected argument ", -info);
}

// The size of the workspace a routine asks for in its query (lwork = -1), which it writes as a float into work[0].
template <typename T>
int workspace_size(T answer) {
  // Rounded up: a float may round the count down. LAPACK counts in int, which a huge matrix's workspace passes.
  WICK_CHECK_KIND(OutOfMemoryError, double(answer) < double(INT_MAX), "LAPACK asks for a workspace of ", answer,
                  " elements, more than it can address");
  return int(answer) + 1;
}

}  // namespace wick::detail
