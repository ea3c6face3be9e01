// core/src/inplace_views.cpp: t_, transpose_, squeeze_ and unsqueeze_, which give self the geometry
// of the view their out-of-place forms return (Note [In-place views]).
#include "wick/autograd/grad_mode.h"
#include "wick/autograd/variable.h"
#include "wick/ops/squeeze.h"
#include "wick/ops/t.h"
#include "wick/ops/transpose.h"
#include "wick/ops/unsqueeze.h"

namespace wick {
namespace {

// Note [In-place views]
// ~~~~~~~~~~~~~~~~~~~~~
// x.t_() is x taking the sizes, strides and offset of x.t(): the out-of-place op makes
// every check, and no element moves. The binding runs these with the GIL held (their
// declarations say releases_gil: false), so Python never sees the geometry change
// halfway (Note [Tensors read without the GIL]). Autograd records them as any in-place
// op; but where self is a view of another tensor, its gradient would go back through the
// base's CopySlices, which knows the view by its old geometry, so a view that requires
// grad is refused in grad mode (PyTorch gives such a view a grad_fn of its own).
const Tensor& take_geometry(const Tensor& self, const Tensor& view) {
  WICK_CHECK(!(self.impl()->base() && autograd::is_grad_enabled() && autograd::requires_grad(self)),
             "an in-place view op cannot change a view that requires grad; use the out-of-place op");
  self.impl()->set_geometry(self.storage(), view.sizes().vec(), view.strides().vec(), view.storage_offset());
  return self;
}

}  // namespace

const Tensor& t_(const Tensor& self) { return take_geometry(self, t(self)); }

const Tensor& transpose_(const Tensor& self, int64_t dim0, int64_t dim1) {
  return take_geometry(self, transpose(self, dim0, dim1));
}

const Tensor& squeeze_(const Tensor& self) { return take_geometry(self, squeeze(self)); }

const Tensor& squeeze_(const Tensor& self, int64_t dim) { return take_geometry(self, squeeze(self, dim)); }

const Tensor& unsqueeze_(const Tensor& self, int64_t dim) { return take_geometry(self, unsqueeze(self, dim)); }

}  // namespace wick
