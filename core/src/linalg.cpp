// core/src/linalg.cpp: matrix products (mm, mv, dot, bmm, matmul, outer, addmv, addmm, addbmm, baddbmm):
// BLAS for float32 and float64, a loop for the rest.
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "wick/core_ops.h"
#include "wick/cpu/parallel.h"
#include "wick/dispatch.h"
#include "wick/math.h"
#include "wick/ops/addbmm.h"
#include "wick/ops/addmm.h"
#include "wick/ops/addmv.h"
#include "wick/ops/baddbmm.h"
#include "wick/ops/bmm.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/dot.h"
#include "wick/ops/matmul.h"
#include "wick/ops/mm.h"
#include "wick/ops/mul.h"
#include "wick/ops/mv.h"
#include "wick/ops/outer.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/zero_.h"
#include "wick/overflow.h"

namespace wick {
namespace {

void check_operands(const Tensor& a, const Tensor& b) {
  WICK_CHECK_VALUE(a.defined() && b.defined(), "expected tensors, got None");
  WICK_CHECK_TYPE(a.dtype() == b.dtype(), "expected both operands to have the same dtype, but got ",
                  dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
  WICK_CHECK_TYPE(a.dtype() != DType::Bool, "not implemented for 'Bool'");
  WICK_CHECK(a.device() == b.device(), "expected both operands on one device, got ", a.device().str(),
             " and ", b.device().str());
  detail::check_cpu(a);
}

// The `self` of the add*mm ops: same dtype and device as the product it is added to.
void check_self(const Tensor& self, const Tensor& operand) {
  WICK_CHECK_VALUE(self.defined(), "expected a tensor for self, got None");
  WICK_CHECK_TYPE(self.dtype() == operand.dtype(), "expected self to have the dtype of the product, ",
                  dtype_name(operand.dtype()), ", but got ", dtype_name(self.dtype()));
  WICK_CHECK(self.device() == operand.device(), "expected self on ", operand.device().str(), ", got ",
             self.device().str());
}

// Whether BLAS can read a rows x cols matrix with these strides as is: one unit stride and a
// leading dimension that covers the other. The stride of a dim of size 1 is never read, so any will do.
bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, CBLAS_TRANSPOSE* trans, int64_t* ld) {
  if ((cols == 1 || cs == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1))) {
    *trans = CblasNoTrans;
    *ld = rows == 1 ? std::max<int64_t>(cols, 1) : rs;
    return true;
  }
  if ((rows == 1 || rs == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1))) {
    *trans = CblasTrans;
    *ld = cols == 1 ? std::max<int64_t>(rows, 1) : cs;
    return true;
  }
  return false;
}

bool blas_layout(const Tensor& m, CBLAS_TRANSPOSE* trans, int64_t* ld) {
  return blas_layout(m.size(-2), m.size(-1), m.stride(-2), m.stride(-1), trans, ld);
}

// The element offset of each matrix of `t` (..., rows, cols) as its batch dims broadcast to `batch`, in row-major
// order of `batch`: a broadcast dim adds nothing.
std::vector<int64_t> batch_offsets(const Tensor& t, IntArrayRef batch) {
  const size_t own = size_t(t.dim() - 2), lead = batch.size() - own;
  const int64_t count = checked_numel(batch);
  std::vector<int64_t> offsets(size_t(count), 0);
  DimVector index(batch.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < own; ++d) {
      if (t.sizes()[d] != 1) offset += index[lead + d] * t.strides()[d];
    }
    offsets[size_t(i)] = offset;
    for (size_t d = batch.size(); d-- > 0;) {
      if (++index[d] < batch[d]) break;
      index[d] = 0;
    }
  }
  return offsets;
}

template <typename Acc>
Acc scalar_as(const Scalar& s) {
  if constexpr (std::is_integral_v<Acc>) return Acc(s.to_int64());
  else return Acc(s.to_double());
}

// With `reduce`, the products of all batches are summed in Acc before the one rounding to T.
// Integer products wrap around on overflow, as in PyTorch (Note [Wrapping integer arithmetic]).
template <typename T>
void gemm_loop(int64_t count, int64_t n, int64_t k, int64_t m, const T* a, const std::vector<int64_t>& a_off,
               int64_t as0, int64_t as1, const T* b, const std::vector<int64_t>& b_off, int64_t bs0, int64_t bs1,
               T* out, const Scalar& alpha, const Scalar& beta, bool reduce) {
  using Acc = acc_t<T>;
  const Acc al = scalar_as<Acc>(alpha), be = scalar_as<Acc>(beta);
  std::vector<Acc> sums(static_cast<size_t>(reduce ? n * m : m));
  auto write_row = [&](T* orow, const Acc* acc) {
    for (int64_t c = 0; c < m; ++c) {
      const Acc scaled = math::wrapping_mul(al, acc[c]);
      const Acc v = be == Acc(0) ? scaled : math::wrapping_add(math::wrapping_mul(be, Acc(opmath_t<T>(orow[c]))),
                                                               scaled);
      orow[c] = T(opmath_t<T>(v));
    }
  };
  for (int64_t i = 0; i < count; ++i) {
    const T* pa = a + a_off[size_t(i)];
    const T* pb = b + b_off[size_t(i)];
    for (int64_t r = 0; r < n; ++r) {
      Acc* acc = sums.data() + (reduce ? r * m : 0);
      if (!reduce) std::fill(acc, acc + m, Acc(0));
      // i-p-j order: the inner loop walks a row of b and of the accumulator.
      for (int64_t p = 0; p < k; ++p) {
        const Acc av = Acc(opmath_t<T>(pa[r * as0 + p * as1]));
        const T* brow = pb + p * bs0;
        for (int64_t c = 0; c < m; ++c) {
          acc[c] = math::wrapping_add(acc[c], math::wrapping_mul(av, Acc(opmath_t<T>(brow[c * bs1]))));
        }
      }
      if (!reduce) write_row(out + (i * n + r) * m, acc);
    }
  }
  if (reduce) {
    for (int64_t r = 0; r < n; ++r) write_row(out + r * m, sums.data() + r * m);
  }
}

bool fits_int(std::initializer_list<int64_t> values) {
  return std::all_of(values.begin(), values.end(), [](int64_t v) { return v <= INT_MAX; });
}

// A matrix operand of BLAS: where it starts, how BLAS reads it, and the step along k of its
// single row (a 1 x k left operand) or column (a k x 1 right operand).
template <typename T>
struct BlasOperand {
  const T* data;
  CBLAS_TRANSPOSE trans;
  int64_t ld, inc;
  BlasOperand at(int64_t offset) const { return {data + offset, trans, ld, inc}; }
};

CBLAS_TRANSPOSE flipped(CBLAS_TRANSPOSE t) { return t == CblasNoTrans ? CblasTrans : CblasNoTrans; }

// BLAS by element type, row-major.
void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int n, int m, int k, float alpha, const float* a, int lda,
          const float* b, int ldb, float beta, float* c) {
  cblas_sgemm(CblasRowMajor, ta, tb, n, m, k, alpha, a, lda, b, ldb, beta, c, m);
}
void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int n, int m, int k, double alpha, const double* a, int lda,
          const double* b, int ldb, double beta, double* c) {
  cblas_dgemm(CblasRowMajor, ta, tb, n, m, k, alpha, a, lda, b, ldb, beta, c, m);
}
void gemv(CBLAS_TRANSPOSE t, int rows, int cols, float alpha, const float* a, int lda, const float* x, int incx,
          float* y) {
  cblas_sgemv(CblasRowMajor, t, rows, cols, alpha, a, lda, x, incx, 0.0f, y, 1);
}
void gemv(CBLAS_TRANSPOSE t, int rows, int cols, double alpha, const double* a, int lda, const double* x,
          int incx, double* y) {
  cblas_dgemv(CblasRowMajor, t, rows, cols, alpha, a, lda, x, incx, 0.0, y, 1);
}
float dot(int k, const float* x, int incx, const float* y, int incy) { return cblas_sdot(k, x, incx, y, incy); }
double dot(int k, const double* x, int incx, const double* y, int incy) { return cblas_ddot(k, x, incx, y, incy); }

// out = beta * out + alpha * (a @ b) for one (n x k) @ (k x m) product: a matrix-vector product
// or a dot product through BLAS's level 2 or 1 where one side is a vector, as PyTorch does.
template <typename T>
void blas_product(int64_t n, int64_t k, int64_t m, const BlasOperand<T>& a, const BlasOperand<T>& b, T alpha,
                  T beta, T* out) {
  if ((m > 1 && n > 1) || a.inc <= 0 || b.inc <= 0) {
    gemm(a.trans, b.trans, int(n), int(m), int(k), alpha, a.data, int(a.ld), b.data, int(b.ld), beta, out);
    return;
  }
  if (n == 1 && m == 1) {
    const T product = alpha * dot(int(k), a.data, int(a.inc), b.data, int(b.inc));
    out[0] = beta == T(0) ? product : beta * out[0] + product;
    return;
  }
  // gemv writes y = alpha * A x into zeros (a beta of 0 in some BLAS still multiplies y, NaN
  // included); out's own beta term is added after.
  std::vector<T> previous;
  if (beta != T(0)) previous.assign(out, out + n * m);
  std::fill(out, out + n * m, T(0));
  if (m == 1) {  // A (n x k) times the column b: rows and cols of A as stored
    const bool stored = a.trans == CblasNoTrans;
    gemv(a.trans, int(stored ? n : k), int(stored ? k : n), alpha, a.data, int(a.ld), b.data, int(b.inc), out);
  } else {  // the row a times B (k x m) is B^T a
    const bool stored = b.trans == CblasNoTrans;
    gemv(flipped(b.trans), int(stored ? k : m), int(stored ? m : k), alpha, b.data, int(b.ld), a.data, int(a.inc),
         out);
  }
  for (size_t i = 0; i < previous.size(); ++i) out[i] += beta * previous[i];
}

// Note [Many small products]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// OpenBLAS computes a product of at most kSmallProduct multiply-adds on the thread
// that calls it, and a batch of them one after the other would use one core: so
// the batch is split across wick's threads instead (a convolution's per-image
// products). Larger products are threaded by OpenBLAS itself and stay in order;
// so do the products of addbmm, which all accumulate into one matrix.
constexpr int64_t kSmallProduct = 65536 * 4;  // OpenBLAS's SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD

// Note [Batched products]
// ~~~~~~~~~~~~~~~~~~~~~~~
// Every product here is one call of gemm_batched:
//   out[i] = beta * out[i] + alpha * (a[i] @ b[i])
// for each index i of `batch`, the shape that the batch dims of a (..., n, k) and
// b (..., k, m) broadcast to; with `reduce`, the products are summed into a single
// out matrix instead (addbmm). `out` holds the (batch..., n, m) results contiguous
// in row-major order, whatever its own shape, and is only read when beta != 0;
// beta == 0 ignores it entirely, NaN included, as BLAS does. The operands are read
// in place through their strides, broadcast batch dims included, so neither a
// transpose nor broadcasting copies; only a matrix whose inner strides BLAS cannot
// express is made contiguous, before any broadcasting, so that its copy is no
// bigger than itself. float32 and float64 go to BLAS one matrix at a time (gemv or
// dot where a side is a vector); the other dtypes take a loop that accumulates in
// acc_t (int64 or double).
void gemm_batched(const Tensor& out, Tensor a, Tensor b, IntArrayRef batch, const Scalar& alpha,
                  const Scalar& beta, bool reduce) {
  const int64_t n = a.size(-2), k = a.size(-1), m = b.size(-1);
  if (out.numel() == 0) return;
  const int64_t count = *numel_checked(batch);  // at most out's element count
  if (k == 0 || count == 0) {  // sums of nothing: out = beta * out
    if (beta.to_double() == 0) zero_(out);
    else if (beta.to_double() != 1) mul_(out, beta);
    return;
  }
  const DType dtype = a.dtype();
  if (dtype == DType::Float32 || dtype == DType::Float64) {
    CBLAS_TRANSPOSE ta, tb;
    int64_t lda, ldb;
    if (!blas_layout(a, &ta, &lda)) a = contiguous(a), blas_layout(a, &ta, &lda);
    if (!blas_layout(b, &tb, &ldb)) b = contiguous(b), blas_layout(b, &tb, &ldb);
    // The steps along k of a row of `a` and of a column of `b`, for the vector forms.
    const int64_t a_inc = k == 1 ? 1 : a.stride(-1), b_inc = k == 1 ? 1 : b.stride(-2);
    if (fits_int({n, m, k, lda, ldb, a_inc, b_inc})) {
      const std::vector<int64_t> a_off = batch_offsets(a, batch), b_off = batch_offsets(b, batch);
      dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point_v<T>) {
          const BlasOperand<T> left{a.data<T>(), ta, lda, a_inc}, right{b.data<T>(), tb, ldb, b_inc};
          auto products = [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
              const bool first = !reduce || i == 0;
              blas_product(n, k, m, left.at(a_off[size_t(i)]), right.at(b_off[size_t(i)]), T(alpha.to_double()),
                           first ? T(beta.to_double()) : T(1), out.data<T>() + (reduce ? 0 : i * n * m));
            }
          };
          // Note [Many small products]
          const int64_t work = mul_checked(n * m, k).value_or(INT64_MAX);  // n * m: out's own elements
          if (reduce || work > kSmallProduct) {
            products(0, count);
          } else {
            detail::parallel_for(count, std::max<int64_t>(1, detail::kGrainSize / std::max<int64_t>(1, work)),
                                 products);
          }
        }
      });
      return;
    }
    // Dimensions beyond BLAS's int: the loop below, slow but right.
  }
  const std::vector<int64_t> a_off = batch_offsets(a, batch), b_off = batch_offsets(b, batch);
  dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      gemm_loop<T>(count, n, k, m, a.data<T>(), a_off, a.stride(-2), a.stride(-1), b.data<T>(), b_off,
                   b.stride(-2), b.stride(-1), out.data<T>(), alpha, beta, reduce);
    }
  });
}

// The `self` of the add*mm ops: it must broadcast to the result's `sizes`.
void check_self_broadcasts(const Tensor& self, IntArrayRef sizes) {
  WICK_CHECK(detail::broadcasts_to(self.sizes(), sizes), "self of shape ", shape_str(self.sizes()),
             " does not broadcast to the result shape ", shape_str(sizes));
}

// Starts the result `out` of an add*mm op with `self` broadcast into it, when beta will read it and out
// is not self already (the in-place form writing self directly).
void start_result(const Tensor& out, const Tensor& self, const Scalar& beta) {
  if (beta.to_double() == 0 || out.is_same(self)) return;
  const detail::SerialScope serial;  // BLAS comes next: Note [OpenMP beside BLAS]
  copy_(out, self);
}


std::string matrix_str(const Tensor& m) { return detail::str_cat(m.size(0), "x", m.size(1)); }

void check_mm_shapes(const Tensor& mat1, const Tensor& mat2) {
  WICK_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
             matrix_str(mat1), " and ", matrix_str(mat2), ")");
}

void check_batches(const Tensor& batch1, const Tensor& batch2) {
  WICK_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor, got ", batch1.dim(), "-D");
  WICK_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor, got ", batch2.dim(), "-D");
  WICK_CHECK(batch2.size(0) == batch1.size(0) && batch2.size(1) == batch1.size(2),
             "expected size for first two dimensions of batch2 tensor to be: [", batch1.size(0), ", ",
             batch1.size(2), "] but got: [", batch2.size(0), ", ", batch2.size(1), "]");
}

}  // namespace

namespace detail {

OutputSpec mm_meta(const Tensor& self, const Tensor& mat2) {
  check_operands(self, mat2);
  WICK_CHECK(self.dim() == 2 && mat2.dim() == 2, "expected 2-D tensors, got ", self.dim(), "-D and ",
             mat2.dim(), "-D");
  check_mm_shapes(self, mat2);
  return {{self.size(0), mat2.size(1)}, self.dtype(), self.device()};
}

void mm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  gemm_batched(out, self, mat2, {}, 1, 0, false);
}

OutputSpec mv_meta(const Tensor& self, const Tensor& vec) {
  check_operands(self, vec);
  WICK_CHECK(self.dim() == 2 && vec.dim() == 1, "expected a 2-D matrix and a 1-D vector, got ",
             self.dim(), "-D and ", vec.dim(), "-D");
  WICK_CHECK(self.size(1) == vec.size(0), "size mismatch, got matrix ", matrix_str(self), " and vector ",
             vec.size(0));
  return {{self.size(0)}, self.dtype(), self.device()};
}

void mv_impl(const Tensor& out, const Tensor& self, const Tensor& vec) {
  gemm_batched(out, self, unsqueeze(vec, 1), {}, 1, 0, false);  // into an (n x 1) matrix
}

OutputSpec dot_meta(const Tensor& self, const Tensor& tensor) {
  WICK_CHECK_VALUE(self.defined() && tensor.defined(), "expected tensors, got None");
  WICK_CHECK(self.dim() == 1 && tensor.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ",
             tensor.dim(), "D tensors");
  check_operands(self, tensor);
  WICK_CHECK(self.size(0) == tensor.size(0), "inconsistent tensor size, expected tensor [", self.size(0),
             "] and src [", tensor.size(0), "] to have the same number of elements, but got ", self.size(0),
             " and ", tensor.size(0), " elements respectively");
  return {{}, self.dtype(), self.device()};
}

void dot_impl(const Tensor& out, const Tensor& self, const Tensor& tensor) {
  gemm_batched(out, unsqueeze(self, 0), unsqueeze(tensor, 1), {}, 1, 0, false);  // (1 x k) @ (k x 1)
}

OutputSpec bmm_meta(const Tensor& self, const Tensor& mat2) {
  check_operands(self, mat2);
  check_batches(self, mat2);
  return {{self.size(0), self.size(1), mat2.size(2)}, self.dtype(), self.device()};
}

void bmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  gemm_batched(out, self, mat2, {self.size(0)}, 1, 0, false);
}

}  // namespace detail

namespace {

// The operands of matmul as matrices: a 1-d first operand is a row (1 x k), a 1-d second operand a column (k x 1).
std::pair<Tensor, Tensor> as_matrices(const Tensor& self, const Tensor& other) {
  return {self.dim() == 1 ? unsqueeze(self, 0) : self, other.dim() == 1 ? unsqueeze(other, 1) : other};
}

// The shape that the batch dims of the matrices a and b broadcast to.
DimVector batch_shape(const Tensor& a, const Tensor& b) {
  const IntArrayRef a_batch(a.sizes().data(), size_t(a.dim() - 2)), b_batch(b.sizes().data(), size_t(b.dim() - 2));
  return broadcast_shapes(a_batch, b_batch);
}

}  // namespace

namespace detail {

// PyTorch's rules: 1-d @ 1-d is a dot product; a 1-d first operand is a row (1 x k) and a 1-d second
// operand a column (k x 1), the added dim dropped from the result; dims before the last two are batch
// dims that broadcast. See Note [Batched products] for why nothing is expanded or copied.
OutputSpec matmul_meta(const Tensor& self, const Tensor& other) {
  check_operands(self, other);
  const int64_t d1 = self.dim(), d2 = other.dim();
  WICK_CHECK(d1 >= 1 && d2 >= 1, "both arguments to matmul need to be at least 1D, but they are ", d1,
             "D and ", d2, "D");
  if (d1 == 1 && d2 == 1) return dot_meta(self, other);
  if (d1 == 2 && d2 == 1) return mv_meta(self, other);
  if (d1 == 2 && d2 == 2) return mm_meta(self, other);
  const std::pair<Tensor, Tensor> matrices = as_matrices(self, other);
  const Tensor &a = matrices.first, &b = matrices.second;
  const int64_t n = a.size(-2), k = a.size(-1), k2 = b.size(-2), m = b.size(-1);
  WICK_CHECK(k == k2, "shapes cannot be multiplied: ", shape_str(self.sizes()), " and ",
             shape_str(other.sizes()), " (", n, "x", k, " and ", k2, "x", m, " matrices)");
  // The result has no dim for a 1-d operand; its elements are those of the (batch..., n, m) product all the same.
  DimVector sizes = batch_shape(a, b);
  if (d1 > 1) sizes.push_back(n);
  if (d2 > 1) sizes.push_back(m);
  return {std::move(sizes), self.dtype(), self.device()};
}

void matmul_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  const int64_t d1 = self.dim(), d2 = other.dim();
  if (d1 == 1 && d2 == 1) return dot_impl(out, self, other);
  if (d1 == 2 && d2 == 1) return mv_impl(out, self, other);
  if (d1 == 2 && d2 == 2) return mm_impl(out, self, other);
  const std::pair<Tensor, Tensor> matrices = as_matrices(self, other);
  const Tensor &a = matrices.first, &b = matrices.second;
  // A batched first operand times a plain matrix or vector whose batch folds into its rows: one product.
  const bool fold = b.dim() == 2 && a.dim() > 2 && [&] {
    for (int64_t d = 0; d < a.dim() - 2; ++d) {
      if (a.stride(d) != a.stride(d + 1) * a.size(d + 1) && a.size(d) != 1) return false;
    }
    return true;
  }();
  if (fold) {
    // a's rows: all its dims but the last, which may hold no elements (k == 0) when these are many.
    const int64_t k = a.size(-1);
    const int64_t count = or_overflow_error(numel_checked(IntArrayRef(a.sizes().data(), size_t(a.dim() - 1))));
    const Tensor rows = as_strided(a, {count, k}, {a.stride(-2), a.stride(-1)}, a.storage_offset());
    gemm_batched(out, rows, b, {}, 1, 0, false);
  } else {
    gemm_batched(out, a, b, batch_shape(a, b), 1, 0, false);
  }
}

}  // namespace detail

namespace {

// self as a column, which mul broadcasts against the row vec2.
Tensor outer_column(const Tensor& self, const Tensor& vec2) {
  WICK_CHECK_VALUE(self.defined() && vec2.defined(), "expected tensors, got None");
  WICK_CHECK(self.dim() == 1, "expected 1-D argument self, but got ", self.dim(), "-D");
  WICK_CHECK(vec2.dim() == 1, "expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return unsqueeze(self, 1);
}

}  // namespace

// A product of each pair, with mul's type promotion and out= rules, as PyTorch defines it.
Tensor outer(const Tensor& self, const Tensor& vec2) { return mul(outer_column(self, vec2), vec2); }

const Tensor& outer_out(const Tensor& out, const Tensor& self, const Tensor& vec2) {
  return mul_out(out, outer_column(self, vec2), vec2);
}

namespace detail {

// The add*mm ops: beta * self + alpha * product. Their impl computes into `out` with BLAS's C = out and its
// beta, so the in-place form (out is self) reads and writes self where it is, with no copy.

OutputSpec addmv_meta(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                      const Scalar& alpha) {
  check_operands(mat, vec);
  check_self(self, mat);
  WICK_CHECK(mat.dim() == 2 && vec.dim() == 1, "expected a 2-D matrix and a 1-D vector, got ", mat.dim(),
             "-D and ", vec.dim(), "-D");
  WICK_CHECK(mat.size(1) == vec.size(0), "size mismatch, got matrix ", matrix_str(mat), " and vector ",
             vec.size(0));
  checked_convert(beta, mat.dtype());  // beta and alpha must fit the dtype
  checked_convert(alpha, mat.dtype());
  OutputSpec spec{{mat.size(0)}, mat.dtype(), mat.device()};
  check_self_broadcasts(self, spec.sizes);
  return spec;
}

void addmv_impl(const Tensor& out, const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                const Scalar& alpha) {
  const Scalar b = checked_convert(beta, mat.dtype()), a = checked_convert(alpha, mat.dtype());
  start_result(out, self, b);
  gemm_batched(out, mat, unsqueeze(vec, 1), {}, a, b, false);
}

OutputSpec addmm_meta(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                      const Scalar& alpha) {
  check_operands(mat1, mat2);
  check_self(self, mat1);
  WICK_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  WICK_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  check_mm_shapes(mat1, mat2);
  checked_convert(beta, mat1.dtype());  // beta and alpha must fit the dtype
  checked_convert(alpha, mat1.dtype());
  OutputSpec spec{{mat1.size(0), mat2.size(1)}, mat1.dtype(), mat1.device()};
  check_self_broadcasts(self, spec.sizes);
  return spec;
}

void addmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                const Scalar& alpha) {
  const Scalar b = checked_convert(beta, mat1.dtype()), a = checked_convert(alpha, mat1.dtype());
  start_result(out, self, b);
  gemm_batched(out, mat1, mat2, {}, a, b, false);
}

OutputSpec addbmm_meta(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                       const Scalar& alpha) {
  check_operands(batch1, batch2);
  check_self(self, batch1);
  WICK_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor, got ", batch1.dim(), "-D");
  WICK_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor, got ", batch2.dim(), "-D");
  WICK_CHECK(batch1.size(0) == batch2.size(0), "batch1 and batch2 must have same number of batches, got ",
             batch1.size(0), " and ", batch2.size(0));
  WICK_CHECK(batch1.size(2) == batch2.size(1), "incompatible matrix sizes for bmm (", batch1.size(1), "x",
             batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2), ")");
  checked_convert(beta, batch1.dtype());  // beta and alpha must fit the dtype
  checked_convert(alpha, batch1.dtype());
  OutputSpec spec{{batch1.size(1), batch2.size(2)}, batch1.dtype(), batch1.device()};
  check_self_broadcasts(self, spec.sizes);
  return spec;
}

void addbmm_impl(const Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                 const Scalar& beta, const Scalar& alpha) {
  const Scalar b = checked_convert(beta, batch1.dtype()), a = checked_convert(alpha, batch1.dtype());
  start_result(out, self, b);
  gemm_batched(out, batch1, batch2, {batch1.size(0)}, a, b, true);
}

OutputSpec baddbmm_meta(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                        const Scalar& alpha) {
  check_operands(batch1, batch2);
  check_self(self, batch1);
  check_batches(batch1, batch2);
  checked_convert(beta, batch1.dtype());  // beta and alpha must fit the dtype
  checked_convert(alpha, batch1.dtype());
  OutputSpec spec{{batch1.size(0), batch1.size(1), batch2.size(2)}, batch1.dtype(), batch1.device()};
  check_self_broadcasts(self, spec.sizes);
  return spec;
}

void baddbmm_impl(const Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                  const Scalar& beta, const Scalar& alpha) {
  const Scalar b = checked_convert(beta, batch1.dtype()), a = checked_convert(alpha, batch1.dtype());
  start_result(out, self, b);
  gemm_batched(out, batch1, batch2, {batch1.size(0)}, a, b, false);
}

}  // namespace detail

}  // namespace wick
