// core/src/linalg.cpp: mm, mv and addmv; BLAS for float32 and float64, a loop for the rest.
#include <cblas.h>

#include <algorithm>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops.h"

namespace wick {
namespace {

void check_matmul_operands(const char* op, const Tensor& a, const Tensor& b) {
  WICK_CHECK_VALUE(a.defined() && b.defined(), op, "(): expected tensors, got None");
  WICK_CHECK_TYPE(a.dtype() == b.dtype(), op, "(): expected both operands to have the same dtype, but got ",
                  dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
  WICK_CHECK(a.device() == b.device(), op, "(): expected both operands on one device, got ", a.device().str(),
             " and ", b.device().str());
  WICK_CHECK_KIND(NotImplementedError, a.device().is_cpu(), op, "(): not implemented on ", a.device().str(),
                  " yet");
}

// Whether a BLAS routine can read `m` as is: one unit stride and a leading dimension that covers the other.
bool blas_layout(const Tensor& m, CBLAS_TRANSPOSE* trans, int64_t* ld) {
  const int64_t rows = m.sizes()[0], cols = m.sizes()[1];
  const int64_t rs = m.strides()[0], cs = m.strides()[1];
  if (cs == 1 && (rows <= 1 || rs >= std::max<int64_t>(cols, 1))) {
    *trans = CblasNoTrans;
    *ld = std::max<int64_t>({rs, cols, 1});
    return true;
  }
  if (rs == 1 && (cols <= 1 || cs >= std::max<int64_t>(rows, 1))) {
    *trans = CblasTrans;
    *ld = std::max<int64_t>({cs, rows, 1});
    return true;
  }
  return false;
}

// out (n x m, contiguous, fresh) = a (n x k) @ b (k x m)
void matmul_into(const Tensor& out, Tensor a, Tensor b) {
  const int64_t n = a.sizes()[0], k = a.sizes()[1], m = b.sizes()[1];
  if (out.numel() == 0) return;
  if (k == 0) {
    zero_(out);
    return;
  }
  if (a.dtype() == DType::Float32 || a.dtype() == DType::Float64) {
    CBLAS_TRANSPOSE ta, tb;
    int64_t lda, ldb;
    if (!blas_layout(a, &ta, &lda)) a = contiguous(a), blas_layout(a, &ta, &lda);
    if (!blas_layout(b, &tb, &ldb)) b = contiguous(b), blas_layout(b, &tb, &ldb);
    if (a.dtype() == DType::Float32) {
      cblas_sgemm(CblasRowMajor, ta, tb, int(n), int(m), int(k), 1.0f, a.data<float>(), int(lda),
                  b.data<float>(), int(ldb), 0.0f, out.data<float>(), int(m));
    } else {
      cblas_dgemm(CblasRowMajor, ta, tb, int(n), int(m), int(k), 1.0, a.data<double>(), int(lda),
                  b.data<double>(), int(ldb), 0.0, out.data<double>(), int(m));
    }
    return;
  }
  dispatch(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = acc_t<T>;
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* po = out.data<T>();
    const int64_t as0 = a.strides()[0], as1 = a.strides()[1], bs0 = b.strides()[0], bs1 = b.strides()[1];
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        Acc acc = 0;
        for (int64_t p = 0; p < k; ++p) acc += Acc(opmath_t<T>(pa[i * as0 + p * as1])) * Acc(opmath_t<T>(pb[p * bs0 + j * bs1]));
        po[i * m + j] = T(opmath_t<T>(acc));
      }
    }
  });
}

// Writes a fresh contiguous result into out=, or returns it.
Tensor finish(const char* op, const Tensor& out, const Tensor& result) {
  if (!out.defined()) return result;
  detail::prepare_out(op, out, result.sizes(), result.dtype(), result.device());
  return copy_(out, result);
}

}  // namespace

Tensor mm_out(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  check_matmul_operands("mm", self, mat2);
  WICK_CHECK(self.dim() == 2 && mat2.dim() == 2, "mm(): expected 2-D tensors, got ", self.dim(), "-D and ",
             mat2.dim(), "-D");
  WICK_CHECK(self.sizes()[1] == mat2.sizes()[0], "mm(): mat1 and mat2 shapes cannot be multiplied (",
             self.sizes()[0], "x", self.sizes()[1], " and ", mat2.sizes()[0], "x", mat2.sizes()[1], ")");
  Tensor result = empty({self.sizes()[0], mat2.sizes()[1]}, self.dtype(), self.device());
  matmul_into(result, self, mat2);
  return finish("mm", out, result);
}

Tensor mv_out(const Tensor& out, const Tensor& self, const Tensor& vec) {
  check_matmul_operands("mv", self, vec);
  WICK_CHECK(self.dim() == 2 && vec.dim() == 1, "mv(): expected a 2-D matrix and a 1-D vector, got ",
             self.dim(), "-D and ", vec.dim(), "-D");
  WICK_CHECK(self.sizes()[1] == vec.sizes()[0], "mv(): size mismatch, got matrix ", self.sizes()[0], "x",
             self.sizes()[1], " and vector ", vec.sizes()[0]);
  Tensor result = empty({self.sizes()[0]}, self.dtype(), self.device());
  matmul_into(unsqueeze(result, 1), self, unsqueeze(vec, 1));  // an (n x 1) view of the result
  return finish("mv", out, result);
}

Tensor addmv_out(const Tensor& out, const Tensor& self, const Tensor& mat, const Tensor& vec,
                 const Scalar& beta, const Scalar& alpha) {
  check_matmul_operands("addmv", self, mat);
  Tensor product = mv(mat, vec);
  WICK_CHECK(detail::broadcasts_to(self.sizes(), product.sizes()),
             "addmv(): self of shape ", shape_str(self.sizes()), " does not broadcast to the result shape ",
             shape_str(product.sizes()));
  WICK_CHECK_TYPE(is_floating(mat.dtype()) || (!alpha.is_floating_point() && !beta.is_floating_point()),
                  "addmv(): for integral input tensors, beta and alpha must not be floating point numbers");
  // beta == 0 ignores self entirely, NaN and infinity included (BLAS semantics).
  Tensor result = beta.to_double() == 0 ? mul(product, alpha) : add(mul(self, beta), product, alpha);
  return finish("addmv", out, result);
}

}  // namespace wick
