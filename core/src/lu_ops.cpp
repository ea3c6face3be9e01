// core/src/lu_ops.cpp: the ops of LU and Cholesky factorisations (LAPACK getrf, getrs, potrf):
// inverse, det, slogdet, logdet, solve and cholesky. See Note [Row-major matrices in LAPACK] in lapack_utils.h.
#include <atomic>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "lapack_utils.h"
#include "wick/ops/_linalg_cholesky_backward.h"
#include "wick/ops/_linalg_cholesky_ex.h"
#include "wick/ops/_linalg_inv_ex.h"
#include "wick/ops/_linalg_solve_ex.h"
#include "wick/ops/add.h"
#include "wick/ops/cholesky.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/det.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/eye.h"
#include "wick/ops/inverse.h"
#include "wick/ops/logdet.h"
#include "wick/ops/matmul.h"
#include "wick/ops/mul.h"
#include "wick/ops/slogdet.h"
#include "wick/ops/sub.h"
#include "wick/ops/transpose.h"
#include "wick/ops/tril.h"
#include "wick/ops/triu.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

using detail::Lapack;

Tensor new_info(const Tensor& a) {
  return zeros(detail::batch_shape(a), DType::Int32, a.device());
}

// The sign, log|det| and det of each square matrix of `a`, from the LU factors of a^T (which has a's determinant).
// A zero pivot makes all three exact: 0, -inf, 0.
std::tuple<Tensor, Tensor, Tensor> determinants(const Tensor& a) {
  detail::check_square(a);
  const DimVector batch = detail::batch_shape(a);
  Tensor sign = empty(batch, a.dtype(), a.device());
  Tensor logabs = empty(batch, a.dtype(), a.device());
  Tensor det = empty(batch, a.dtype(), a.device());
  const Tensor lu = detail::row_major_copy(a);
  const int n = detail::lapack_int(a.size(-1));
  const int lda = std::max(n, 1);
  detail::dispatch_lapack(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> pivots(static_cast<size_t>(std::max(n, 1)));
    for (int64_t b = 0; b < sign.numel(); ++b) {
      T* m = lu.data<T>() + b * n * n;
      int info = 0;
      Lapack<T>::getrf(&n, &n, m, &lda, pivots.data(), &info);
      detail::check_lapack_arguments("getrf", info);
      T permutation = 1, signs = 1, product = 1, log_sum = 0;
      for (int i = 0; i < n; ++i) {
        const T pivot = m[i * (n + 1)];
        if (pivots[size_t(i)] != i + 1) permutation = -permutation;  // a row swap flips the sign
        if (pivot < 0) signs = -signs;
        product *= pivot;
        log_sum += std::log(std::abs(pivot));
      }
      const bool singular = info > 0;
      sign.data<T>()[b] = singular ? T(0) : permutation * signs;
      logabs.data<T>()[b] = singular ? -std::numeric_limits<T>::infinity() : log_sum;
      det.data<T>()[b] = singular ? T(0) : permutation * product;
    }
  });
  return {sign, logabs, det};
}

// RuntimeError for the first matrix whose info is nonzero: what_before, the info, what_after.
void throw_if_failed(const Tensor& input, const Tensor& info, const char* what_before, const char* what_after) {
  const auto [index, code] = detail::first_failure(info);
  if (index >= 0) detail::throw_for_matrix(input, index, detail::str_cat(what_before, code, what_after));
}

}  // namespace

std::tuple<Tensor, Tensor> _linalg_inv_ex(const Tensor& A) {
  detail::check_square(A);
  // As PyTorch: the solution of A X = I, which rounds as its does (getri's gives -0 where it gives 0).
  return _linalg_solve_ex(A, eye(A.size(-1), A.dtype(), A.device()));
}

Tensor inverse(const Tensor& self) {
  auto [inv, info] = _linalg_inv_ex(self);
  throw_if_failed(self, info, "The diagonal element ",
                  " is zero, the inversion could not be completed because the input matrix is singular.");
  return inv;
}

Tensor det(const Tensor& self) { return std::get<2>(determinants(self)); }

std::tuple<Tensor, Tensor> slogdet(const Tensor& self) {
  auto [sign, logabs, det] = determinants(self);
  return {sign, logabs};
}

// log(det): NaN where det < 0, -inf where it is 0.
Tensor logdet(const Tensor& self) {
  auto [sign, logabs, det] = determinants(self);
  detail::dispatch_lapack(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < sign.numel(); ++i) {
      if (sign.data<T>()[i] < 0) logabs.data<T>()[i] = std::numeric_limits<T>::quiet_NaN();
    }
  });
  return logabs;
}

std::tuple<Tensor, Tensor> _linalg_solve_ex(const Tensor& A, const Tensor& B) {
  detail::check_square(A);
  detail::check_matrices(B);
  WICK_CHECK(A.dtype() == B.dtype(), "Expected A and B to have the same dtype, but found A of type ",
             dtype_name(A.dtype()), " and B of type ", dtype_name(B.dtype()), " instead");
  WICK_CHECK(A.size(-1) == B.size(-2), "Incompatible shapes of A and B for the equation AX = B (", A.size(-2), "x",
             A.size(-1), " and ", B.size(-2), "x", B.size(-1), ")");
  DimVector batch = broadcast_shapes(detail::batch_shape(A), detail::batch_shape(B));
  const int64_t n = A.size(-1), k = B.size(-1);
  DimVector a_shape = batch, b_shape = batch;
  a_shape.push_back(n);
  a_shape.push_back(n);
  b_shape.push_back(n);
  b_shape.push_back(k);
  // A^T's LU, and getrs('T'): see Note [Row-major matrices in LAPACK]. B and X are column-major.
  const Tensor lu = detail::row_major_copy(expand(A, a_shape));
  const Tensor x = detail::column_major_copy(expand(B, b_shape));
  const Tensor info = zeros(batch, DType::Int32, A.device());
  const int ni = detail::lapack_int(n), ki = detail::lapack_int(k);
  const int lda = std::max(ni, 1);
  detail::dispatch_lapack(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> pivots(static_cast<size_t>(lda));
    for (int64_t b = 0; b < info.numel(); ++b) {
      T* m = lu.data<T>() + b * n * n;
      int* code = info.data<int>() + b;
      Lapack<T>::getrf(&ni, &ni, m, &lda, pivots.data(), code);
      detail::check_lapack_arguments("getrf", *code);
      if (*code != 0 || ki == 0) continue;
      int status = 0;
      Lapack<T>::getrs("T", &ni, &ki, m, &lda, pivots.data(), x.data<T>() + b * n * k, &lda, &status, 1);
      detail::check_lapack_arguments("getrs", status);
    }
  });
  return {contiguous(transpose(x, -2, -1)), info};
}

std::tuple<Tensor, Tensor> _linalg_cholesky_ex(const Tensor& A) {
  detail::check_square(A);
  // potrf('U') of A^T reads A's lower triangle and leaves U with A^T = U^T U: U read row-major is L.
  const Tensor l = detail::row_major_copy(A);
  const Tensor info = new_info(A);
  const int n = detail::lapack_int(A.size(-1));
  const int lda = std::max(n, 1);
  detail::dispatch_lapack(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t b = 0; b < info.numel(); ++b) {
      int* code = info.data<int>() + b;
      Lapack<T>::potrf("U", &n, l.data<T>() + b * n * n, &lda, code, 1);
      detail::check_lapack_arguments("potrf", *code);
    }
  });
  return {tril(l), info};
}

Tensor cholesky(const Tensor& self, bool upper) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) {
    warn("cholesky() is deprecated in favor of linalg.cholesky() and will be removed in a future release: "
         "L = cholesky(A) should be replaced with L = linalg.cholesky(A), and U = cholesky(A, upper=True) with "
         "U = linalg.cholesky(A).mH");
  }
  auto [l, info] = _linalg_cholesky_ex(self);
  throw_if_failed(self, info, "The factorization could not be completed because the input is not positive-definite "
                  "(the leading minor of order ", " is not positive-definite).");
  return upper ? contiguous(transpose(l, -2, -1)) : l;
}

// The gradient of A = L L^T (L = result, or result^T when upper): sym(L^{-T} phi(L^T gL) L^{-1}), where phi keeps
// the lower triangle and halves the diagonal, and sym(X) = (X + X^T) / 2 (PyTorch's cholesky_backward).
Tensor _linalg_cholesky_backward(const Tensor& grad, const Tensor& L, bool upper) {
  const Tensor lower = upper ? transpose(L, -2, -1) : L;
  const Tensor grad_lower = upper ? transpose(grad, -2, -1) : grad;
  const Tensor lower_t = transpose(lower, -2, -1);
  const Tensor product = tril(matmul(lower_t, grad_lower));
  const Tensor phi = sub(product, triu(product), 0.5);  // the triu of a lower triangle is its diagonal
  const Tensor l_inv = inverse(lower);
  const Tensor g = matmul(matmul(transpose(l_inv, -2, -1), phi), l_inv);
  return mul(add(g, transpose(g, -2, -1)), 0.5);
}

}  // namespace wick
