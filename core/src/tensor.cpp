// core/src/tensor.cpp: TensorImpl geometry, and the helpers every op uses to make tensors.
#include "wick/tensor.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "wick/autograd/grad_mode.h"
#include "wick/autograd/variable.h"
#include "wick/core_ops.h"
#include "wick/ops/dim.h"
#include "wick/ops/empty.h"
#include "wick/ops/fill_.h"
#include "wick/ops/resize_.h"
#include "wick/ops/resize_as_.h"
#include "wick/ops/to.h"
#include "wick/overflow.h"

namespace wick {

TensorImpl::TensorImpl(Storage storage, DType dtype, DimVector sizes, DimVector strides, int64_t offset)
    : storage_(std::move(storage)), sizes_(std::move(sizes)), strides_(std::move(strides)),
      offset_(offset), dtype_(dtype) {
  WICK_INTERNAL_ASSERT(storage_, "a tensor's storage is never null (Note [Storage])");
  refresh();
}

namespace {
TensorImpl::PyObjReleaseHook pyobj_release_hook = nullptr;
}  // namespace

void TensorImpl::set_pyobj_release_hook(PyObjReleaseHook hook) { pyobj_release_hook = hook; }

TensorImpl::~TensorImpl() {
  if (owns_pyobj_ && pyobj_release_hook) {
    void* obj = pyobj_;
    pyobj_ = nullptr;
    pyobj_release_hook(obj);
  }
}

autograd::AutogradMeta& TensorImpl::ensure_autograd_meta() {
  if (!autograd_meta_) autograd_meta_ = std::make_unique<autograd::AutogradMeta>();
  return *autograd_meta_;
}

void TensorImpl::clear_autograd_meta() { autograd_meta_.reset(); }

void TensorImpl::set_geometry(Storage storage, DimVector sizes, DimVector strides, int64_t offset) {
  storage_ = std::move(storage);
  sizes_ = std::move(sizes);
  strides_ = std::move(strides);
  offset_ = offset;
  refresh();
}

// See Note [Checked size arithmetic]: the one place every geometry passes.
void TensorImpl::refresh() {
  WICK_INTERNAL_ASSERT(sizes_.size() == strides_.size());
  for (int64_t s : sizes_) {
    WICK_CHECK_VALUE(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", shape_str(sizes_));
  }
  const std::optional<int64_t> numel = numel_checked(sizes_);
  WICK_CHECK(numel, "numel: integer multiplication overflow for the sizes ", shape_str(sizes_));
  WICK_CHECK_VALUE(offset_ >= 0, "negative storage offset ", offset_);
  numel_ = *numel;
  contiguous_ = true;  // any tensor without elements is contiguous
  if (numel_ == 0) return;
  // The lowest and highest elements addressed, and the capacity of the storage, in elements.
  int64_t lo = offset_, hi = offset_;
  bool overflow = false;
  for (size_t i = 0; i < sizes_.size(); ++i) {
    // Code that walks a tensor takes every stride in bytes, even along a dim of one element, where the
    // stride reaches nothing (set_, empty_strided): each must fit in int64 (Note [Checked size arithmetic]).
    int64_t bytes;
    WICK_CHECK(!__builtin_mul_overflow(strides_[i], wick::itemsize(dtype_), &bytes), "a stride of ", strides_[i],
               " elements of ", wick::itemsize(dtype_), " bytes is more bytes than an int64 holds");
    int64_t reach;
    overflow = __builtin_mul_overflow(sizes_[i] - 1, strides_[i], &reach) || overflow;
    overflow = __builtin_add_overflow(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi) || overflow;
  }
  const int64_t capacity = int64_t(std::min<size_t>(storage_->nbytes(), size_t(INT64_MAX))) / wick::itemsize(dtype_);
  WICK_CHECK(!overflow && lo >= 0 && hi < capacity, "a tensor of sizes ", shape_str(sizes_), " and strides ",
             shape_str(strides_), " at offset ", offset_, " reaches outside its storage of ", capacity, " elements");
  int64_t expected = 1;
  for (size_t i = sizes_.size(); i-- > 0;) {
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) contiguous_ = false;
    expected *= sizes_[i];
  }
}

int64_t wrap_dim(int64_t d, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  WICK_CHECK_INDEX(d >= -n && d < n, "Dimension out of range (expected to be in range of [", -n, ", ",
                   n - 1, "], but got ", d, ")");
  return d < 0 ? d + n : d;
}

int64_t Tensor::wrap_dim(int64_t d) const { return wick::wrap_dim(d, dim()); }

int64_t Tensor::existing_dim(int64_t d) const {
  WICK_CHECK_INDEX(dim() > 0, "dimension specified as ", d, " but tensor has no dimensions");
  return wrap_dim(d);
}

std::string shape_str(IntArrayRef sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  int64_t stride = 1;
  bool overflow = false;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    // Dims of size 0 count as 1, so strides may pass int64 where the element count does not.
    if (i > 0) overflow = __builtin_mul_overflow(stride, std::max<int64_t>(sizes[i], 1), &stride) || overflow;
  }
  WICK_CHECK(!overflow, "Storage size calculation overflowed with sizes=", shape_str(sizes));
  return strides;
}

int64_t checked_numel(IntArrayRef sizes) {
  for (int64_t s : sizes) WICK_CHECK_VALUE(s >= 0, "negative dimension ", s, " in size ", shape_str(sizes));
  const std::optional<int64_t> n = numel_checked(sizes);
  if (!n) throw OutOfMemoryError("the size " + shape_str(sizes) + " has more elements than memory can hold");
  return *n;
}

Tensor make_tensor(Storage storage, DType dtype, DimVector sizes, DimVector strides, int64_t offset) {
  return Tensor(intrusive_ptr<TensorImpl>::make(std::move(storage), dtype, std::move(sizes),
                                                std::move(strides), offset));
}

Tensor make_view(const Tensor& self, DimVector sizes, DimVector strides, int64_t offset) {
  Tensor view = make_tensor(self.storage(), self.dtype(), std::move(sizes), std::move(strides), offset);
  TensorImpl* root = self.impl()->base() ? self.impl()->base() : self.impl();
  view.impl()->set_base(intrusive_ptr<TensorImpl>(root));
  return view;
}

Tensor alias(const Tensor& self) {
  return make_view(self, self.sizes().vec(), self.strides().vec(), self.storage_offset());
}

Tensor empty_like(const Tensor& self) { return empty(self.sizes(), self.dtype(), self.device()); }

Tensor as_strided(const Tensor& self, DimVector sizes, DimVector strides, int64_t offset) {
  WICK_CHECK(sizes.size() == strides.size(), sizes.size(), " sizes but ",
                   strides.size(), " strides");
  for (size_t i = 0; i < sizes.size(); ++i) {
    WICK_CHECK_VALUE(sizes[i] >= 0 && strides[i] >= 0, "negative size or stride");
  }
  WICK_CHECK_VALUE(offset >= 0, "negative storage offset ", offset);
  return make_view(self, std::move(sizes), std::move(strides), offset);  // refresh() checks the reach
}

void resize_output(const Tensor& self, IntArrayRef sizes) {
  const int64_t numel = checked_numel(sizes);
  const std::optional<int64_t> elements = add_checked(numel, self.storage_offset());
  const std::optional<int64_t> bytes = elements ? mul_checked(*elements, self.itemsize()) : std::nullopt;
  if (!bytes) throw OutOfMemoryError("Storage size calculation overflowed with sizes=" + shape_str(sizes));
  const size_t nbytes = size_t(*bytes);
  Storage storage = self.storage();
  if (nbytes > storage->nbytes()) {
    Storage bigger = allocate_storage(nbytes, self.device());
    if (storage->nbytes() > 0) {
      if (self.device().is_cpu()) std::copy_n(static_cast<char*>(storage->data()), storage->nbytes(),
                                              static_cast<char*>(bigger->data()));
      else cuda_runtime::copy_bytes(bigger->data(), self.device(), storage->data(), self.device(), storage->nbytes());
    }
    storage = std::move(bigger);
  }
  self.impl()->set_geometry(std::move(storage), sizes.vec(), contiguous_strides(sizes), self.storage_offset());
}

namespace {

// See Note [set_]: the checks of autograd that every form makes, given what self will alias.
void check_set_autograd(const Tensor& self, const Tensor* source) {
  if (!autograd::is_grad_enabled()) return;
  autograd::check_inplace(self);
  WICK_CHECK(!autograd::requires_grad(self) && !(source && autograd::requires_grad(*source)),
             "the derivative for 'set_' is not implemented.");
}

}  // namespace

void set_(const Tensor& self, Storage storage, int64_t offset, IntArrayRef sizes,
          std::optional<IntArrayRef> strides) {
  check_set_autograd(self, nullptr);
  WICK_CHECK(storage->device() == self.device(), "Expected a storage on ", self.device().str(), " but got one on ",
             storage->device().str());
  WICK_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  for (int64_t s : sizes) WICK_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ",
                                     shape_str(sizes));
  const DimVector stride_vec = strides ? strides->vec() : contiguous_strides(sizes);
  WICK_CHECK(stride_vec.size() == sizes.size(), "unequal size length (", sizes.size(), ") and stride length (",
             stride_vec.size(), ")");
  // The elements needed: one past the furthest addressed, or none for an empty tensor (at any offset, as PyTorch).
  std::optional<int64_t> needed = numel_checked(sizes) == 0 ? 0 : 1;
  for (size_t d = 0; d < sizes.size() && needed && *needed > 0; ++d) {
    WICK_CHECK(stride_vec[d] >= 0, "Storage size calculation overflowed with sizes=", shape_str(sizes),
               " and strides=", shape_str(stride_vec));
    needed = offset_checked(*needed, sizes[d] - 1, stride_vec[d]);
  }
  if (needed && *needed > 0) needed = add_checked(*needed, offset);
  const std::optional<int64_t> needed_bytes = needed ? mul_checked(*needed, self.itemsize()) : std::nullopt;
  WICK_CHECK(needed_bytes, "Storage size calculation overflowed with sizes=", shape_str(sizes), " and strides=",
             shape_str(stride_vec));
  WICK_CHECK(uint64_t(*needed_bytes) <= storage->nbytes(), "setStorage: sizes ", shape_str(sizes), ", strides ",
             shape_str(stride_vec), ", storage offset ", offset, ", and itemsize ", self.itemsize(),
             " requiring a storage size of ", *needed_bytes, " are out of bounds for storage of size ",
             storage->nbytes());
  self.impl()->set_geometry(std::move(storage), sizes.vec(), stride_vec, offset);
  autograd::bump_version(self);
}

void set_(const Tensor& self, const Tensor& source) {
  check_set_autograd(self, &source);
  WICK_CHECK(source.dtype() == self.dtype(), "Expected a tensor of dtype ", dtype_name(self.dtype()),
             " but got one of ", dtype_name(source.dtype()));
  WICK_CHECK(source.device() == self.device(), "Expected a tensor on ", self.device().str(), " but got one on ",
             source.device().str());
  if (!self.is_same(source)) {
    self.impl()->set_geometry(source.storage(), source.sizes().vec(), source.strides().vec(),
                              source.storage_offset());
  }
  autograd::bump_version(self);
}

void set_(const Tensor& self) {
  check_set_autograd(self, nullptr);
  self.impl()->set_geometry(allocate_storage(0, self.device()), {0}, {1}, 0);
  autograd::bump_version(self);
}

// As PyTorch, in grad mode or not: a resized tensor's gradient would have no shape to take.
const Tensor& resize_(const Tensor& self, IntArrayRef size) {
  WICK_CHECK(!autograd::requires_grad(self), "cannot resize variables that require grad");
  resize_output(self, size);
  return self;
}

const Tensor& resize_as_(const Tensor& self, const Tensor& the_template) { return resize_(self, the_template.sizes()); }

Tensor scalar_tensor(const Scalar& value, DType dtype, Device device) {
  Tensor t = empty({}, dtype, kCPU);
  fill_(t, value);
  return device.is_cpu() ? t : to(t, device);
}

DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t sa = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t sb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    WICK_CHECK(sa == sb || sa == 1 || sb == 1, "the size of tensor a (", sa,
                     ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i,
                     " (shapes ", shape_str(a), " and ", shape_str(b), ")");
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

namespace detail {

Tensor prepare_out(const char* op, const Tensor& out, IntArrayRef sizes, DType dtype, Device device) {
  if (!out.defined()) return empty(sizes, dtype, device);
  WICK_CHECK_TYPE(out.dtype() == dtype, "expected out= to have dtype ", dtype_name(dtype),
                  " but got ", dtype_name(out.dtype()));
  WICK_CHECK(out.device() == device, "expected out= on ", device.str(), " but it is on ",
             out.device().str());
  if (out.sizes() != sizes) {
    if (out.numel() != 0) {
      warn(op, "(): an output with one or more elements was resized since it had shape ",
           shape_str(out.sizes()), ", which does not match the required output shape ", shape_str(sizes),
           ". This behavior is deprecated; resize the output to zero elements first.");
    }
    resize_output(out, sizes);
  }
  return out;
}

void check_cpu(const Tensor& t) {
  WICK_CHECK_KIND(NotImplementedError, t.device().is_cpu(), "not implemented for tensors on ",
                  t.device().str(), " yet (CPU only)");
}

bool broadcasts_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  }
  return true;
}

bool may_overlap(const Tensor& a, const Tensor& b) {
  if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
  auto extent = [](const Tensor& t) {
    int64_t last = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) last += (t.sizes()[size_t(d)] - 1) * t.strides()[size_t(d)];
    return std::make_pair(t.storage_offset() * t.itemsize(), (last + 1) * t.itemsize());
  };
  auto [a0, a1] = extent(a);
  auto [b0, b1] = extent(b);
  return a0 < b1 && b0 < a1;
}

}  // namespace detail
}  // namespace wick
