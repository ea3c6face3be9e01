// core/src/decompositions.cpp: QR (LAPACK geqrf, orgqr), the symmetric eigendecomposition (syevd) and the SVD
// (gesdd), and torch.svd and pinverse on top of it. See Note [Row-major matrices in LAPACK] in lapack_utils.h.
#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "lapack_utils.h"
#include "wick/ops/_linalg_eigh.h"
#include "wick/ops/_linalg_no_derivative.h"
#include "wick/ops/_linalg_qr.h"
#include "wick/ops/_linalg_svd.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/expand.h"
#include "wick/ops/eye.h"
#include "wick/ops/gt.h"
#include "wick/ops/matmul.h"
#include "wick/ops/mul.h"
#include "wick/ops/narrow.h"
#include "wick/ops/pinverse.h"
#include "wick/ops/reciprocal.h"
#include "wick/ops/svd.h"
#include "wick/ops/transpose.h"
#include "wick/ops/triu.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/where.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

using detail::Lapack;

// The shape of `batch` followed by rows x cols.
DimVector matrix_shape(const DimVector& batch, int64_t rows, int64_t cols) {
  DimVector shape = batch;
  shape.push_back(rows);
  shape.push_back(cols);
  return shape;
}

Tensor nothing(const Tensor& like) { return empty({0}, like.dtype(), like.device()); }

}  // namespace

std::tuple<Tensor, Tensor> _linalg_qr(const Tensor& A, std::string_view mode) {
  detail::check_matrices(A);
  WICK_CHECK(mode == "reduced" || mode == "complete" || mode == "r", "qr received unrecognized mode '", mode,
             "' but expected one of 'reduced' (default), 'r', or 'complete'");
  const DimVector batch = detail::batch_shape(A);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  const int64_t q_cols = mode == "complete" ? m : k;
  // QR needs A itself: a column-major copy, whose first min(n, q_cols) columns (the reflectors) go to Q's buffer.
  const Tensor factors = detail::column_major_copy(A);
  const Tensor q = zeros(matrix_shape(batch, q_cols, m), A.dtype(), A.device());  // column-major m x q_cols
  const int mi = detail::lapack_int(m), ni = detail::lapack_int(n), ki = int(k), qi = detail::lapack_int(q_cols);
  const int lda = std::max(mi, 1);
  detail::dispatch_lapack(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> tau(static_cast<size_t>(std::max(ki, 1)));
    T geqrf_query = 0, orgqr_query = 0;
    int query = -1, info = 0;
    Lapack<T>::geqrf(&mi, &ni, factors.data<T>(), &lda, tau.data(), &geqrf_query, &query, &info);
    detail::check_lapack_arguments("geqrf", info);
    Lapack<T>::orgqr(&mi, &qi, &ki, q.data<T>(), &lda, tau.data(), &orgqr_query, &query, &info);
    detail::check_lapack_arguments("orgqr", info);
    int lwork = std::max(detail::workspace_size(geqrf_query), detail::workspace_size(orgqr_query));
    std::vector<T> work(static_cast<size_t>(lwork));
    const int64_t count = checked_numel(batch);
    for (int64_t b = 0; b < count; ++b) {
      T* f = factors.data<T>() + b * m * n;
      Lapack<T>::geqrf(&mi, &ni, f, &lda, tau.data(), work.data(), &lwork, &info);
      detail::check_lapack_arguments("geqrf", info);
      if (mode == "r") continue;
      T* qb = q.data<T>() + b * m * q_cols;
      std::copy(f, f + m * std::min(n, q_cols), qb);
      Lapack<T>::orgqr(&mi, &qi, &ki, qb, &lda, tau.data(), work.data(), &lwork, &info);
      detail::check_lapack_arguments("orgqr", info);
    }
  });
  // R is the upper triangle of the factors' first rows: all m of them when complete, else k.
  const Tensor r = triu(narrow(transpose(factors, -2, -1), -2, 0, mode == "complete" ? m : k));
  return {mode == "r" ? nothing(A) : contiguous(transpose(q, -2, -1)), contiguous(r)};
}

std::tuple<Tensor, Tensor> _linalg_eigh(const Tensor& A, std::string_view UPLO, bool compute_v) {
  detail::check_square(A);
  WICK_CHECK(UPLO == "L" || UPLO == "U" || UPLO == "l" || UPLO == "u",
             "Expected UPLO argument to be 'L' or 'U', but got ", UPLO);
  // syevd of A^T, reading the other triangle; its eigenvectors (columns) come back row-major as rows.
  const char* uplo = UPLO == "L" || UPLO == "l" ? "U" : "L";
  const DimVector batch = detail::batch_shape(A);
  const int64_t n = A.size(-1);
  const Tensor vectors = detail::row_major_copy(A);
  DimVector values_shape = batch;
  values_shape.push_back(n);
  const Tensor values = empty(values_shape, A.dtype(), A.device());
  const int ni = detail::lapack_int(n);
  const int lda = std::max(ni, 1);
  const char* jobz = compute_v ? "V" : "N";
  detail::dispatch_lapack(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T work_query = 0;
    int iwork_query = 0, query = -1, info = 0;
    Lapack<T>::syevd(jobz, uplo, &ni, vectors.data<T>(), &lda, values.data<T>(), &work_query, &query, &iwork_query,
                     &query, &info, 1, 1);
    detail::check_lapack_arguments("syevd", info);
    int lwork = detail::workspace_size(work_query), liwork = std::max(iwork_query, 1);
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<int> iwork(static_cast<size_t>(liwork));
    const int64_t count = checked_numel(batch);
    for (int64_t b = 0; b < count; ++b) {
      Lapack<T>::syevd(jobz, uplo, &ni, vectors.data<T>() + b * n * n, &lda, values.data<T>() + b * n, work.data(),
                       &lwork, iwork.data(), &liwork, &info, 1, 1);
      detail::check_lapack_arguments("syevd", info);
      if (info > 0) {
        detail::throw_for_matrix(A, b, detail::str_cat(
            "The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated "
            "eigenvalues (error code: ", info, ")."));
      }
    }
  });
  return {values, compute_v ? contiguous(transpose(vectors, -2, -1)) : nothing(A)};
}

std::tuple<Tensor, Tensor, Tensor> _linalg_svd(const Tensor& A, bool full_matrices, bool compute_uv) {
  detail::check_matrices(A);
  const DimVector batch = detail::batch_shape(A);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  // gesdd of A^T (n x m): its U' is n x u_cols, read row-major as Vh (u_cols x n); its V'^T is vt_rows x m, read
  // row-major as U (m x vt_rows).
  const int64_t u_cols = full_matrices ? n : k, vt_rows = full_matrices ? m : k;
  const Tensor a = detail::row_major_copy(A);
  DimVector s_shape = batch;
  s_shape.push_back(k);
  const Tensor s = empty(s_shape, A.dtype(), A.device());
  const Tensor u = compute_uv ? empty(matrix_shape(batch, m, vt_rows), A.dtype(), A.device()) : nothing(A);
  const Tensor vh = compute_uv ? empty(matrix_shape(batch, u_cols, n), A.dtype(), A.device()) : nothing(A);
  if (compute_uv && k == 0) {  // nothing to factor: the singular vectors of an empty matrix are the unit vectors
    copy_(u, expand(eye(m, vt_rows, A.dtype(), A.device()), u.sizes()));
    copy_(vh, expand(eye(u_cols, n, A.dtype(), A.device()), vh.sizes()));
  }
  const int64_t count = checked_numel(batch);
  if (k == 0 || count == 0) return {u, s, vh};
  const int mi = detail::lapack_int(n), ni = detail::lapack_int(m);  // the rows and cols of A^T
  const int lda = mi, ldu = mi, ldvt = compute_uv ? int(vt_rows) : 1;
  const char* jobz = !compute_uv ? "N" : full_matrices ? "A" : "S";
  detail::dispatch_lapack(A.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<int> iwork(static_cast<size_t>(8 * k));
    T query_answer = 0, unused = 0;
    int query = -1, info = 0;
    T* u_first = compute_uv ? vh.data<T>() : &unused;
    T* vt_first = compute_uv ? u.data<T>() : &unused;
    Lapack<T>::gesdd(jobz, &mi, &ni, a.data<T>(), &lda, s.data<T>(), u_first, &ldu, vt_first, &ldvt, &query_answer,
                     &query, iwork.data(), &info, 1);
    detail::check_lapack_arguments("gesdd", info);
    int lwork = detail::workspace_size(query_answer);
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t b = 0; b < count; ++b) {
      T* ub = compute_uv ? vh.data<T>() + b * u_cols * n : &unused;
      T* vtb = compute_uv ? u.data<T>() + b * m * vt_rows : &unused;
      Lapack<T>::gesdd(jobz, &mi, &ni, a.data<T>() + b * m * n, &lda, s.data<T>() + b * k, ub, &ldu, vtb, &ldvt,
                       work.data(), &lwork, iwork.data(), &info, 1);
      if (info == -4) {  // gesdd refuses a matrix holding NaN as a bad argument 4, the matrix itself
        detail::throw_for_matrix(A, b, "The algorithm failed to converge because the input matrix contained "
                                       "non-finite values.");
      }
      detail::check_lapack_arguments("gesdd", info);
      if (info > 0) {
        detail::throw_for_matrix(A, b, detail::str_cat(
            "The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated "
            "singular values (error code: ", info, ")."));
      }
    }
  });
  return {u, s, vh};
}

// torch.svd: V rather than Vh, and with compute_uv false, U and V of zeros, m x m and n x n.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some, bool compute_uv) {
  detail::check_matrices(self);
  if (!compute_uv) {
    const DimVector batch = detail::batch_shape(self);
    const int64_t m = self.size(-2), n = self.size(-1);
    return {zeros(matrix_shape(batch, m, m), self.dtype(), self.device()),
            std::get<1>(_linalg_svd(self, false, false)),
            zeros(matrix_shape(batch, n, n), self.dtype(), self.device())};
  }
  auto [u, s, vh] = _linalg_svd(self, !some, true);
  return {u, s, contiguous(transpose(vh, -2, -1))};
}

// PyTorch's pinverse: V diag(1/s) U^T over the singular values s above rcond times the largest; 0 for the others.
Tensor pinverse(const Tensor& self, double rcond) {
  detail::check_matrices(self);
  auto [u, s, vh] = _linalg_svd(self, false, true);
  if (s.numel() == 0) {
    return zeros(matrix_shape(detail::batch_shape(self), self.size(-1), self.size(-2)), self.dtype(), self.device());
  }
  const Tensor cutoff = mul(narrow(s, -1, 0, 1), rcond);  // gesdd sorts s in descending order
  const Tensor s_inv = where(gt(s, cutoff), reciprocal(s), 0.0);
  return matmul(mul(transpose(vh, -2, -1), unsqueeze(s_inv, -2)), transpose(u, -2, -1));
}

Tensor _linalg_no_derivative(const Tensor& grad) {
  (void)grad;
  throw NotImplementedError("wick has no derivative of the QR, symmetric eigen- and singular value decompositions "
                            "yet, nor of the functions computed from them (linalg.qr, eigh, eigvalsh, svd, svdvals, "
                            "pinv, lstsq, matrix_rank, svd, pinverse, matrix_norm's 2, -2 and 'nuc')");
}

}  // namespace wick
