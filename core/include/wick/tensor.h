// core/include/wick/tensor.h: TensorImpl (sizes, strides, offset, dtype over a Storage) and its handle.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "wick/array_ref.h"
#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/error.h"
#include "wick/intrusive_ptr.h"
#include "wick/storage.h"

namespace wick {
namespace autograd {
struct AutogradMeta;
}  // namespace autograd

// Note [Python object slot]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// A TensorImpl holds a pointer to the Python object that wraps it, so the
// binding hands the same C++ tensor back as the same Python object
// (`x.add_(1) is x`). Normally the Python object owns the TensorImpl and the
// slot does not own the object. When Python drops its last reference while
// C++ still holds the TensorImpl (a view's base), the binding turns ownership
// around: the TensorImpl owns the object (owns_pyobj), which keeps its
// __dict__ alive, and the next wrap turns it back. A TensorImpl that dies
// owning its object hands it to the release hook the binding installed.
// Core never looks inside the object: the slot is a void*, and only the
// binding touches it, holding the GIL.
class TensorImpl : public RefCounted {
 public:
  TensorImpl(Storage storage, DType dtype, DimVector sizes, DimVector strides, int64_t offset);
  ~TensorImpl() override;

  const Storage& storage() const { return storage_; }
  DType dtype() const { return dtype_; }
  Device device() const { return storage_->device(); }
  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t storage_offset() const { return offset_; }
  int64_t numel() const { return numel_; }
  int64_t dim() const { return int64_t(sizes_.size()); }
  bool is_contiguous() const { return contiguous_; }

  // Re-points this tensor at new geometry over the same or a new storage.
  void set_geometry(Storage storage, DimVector sizes, DimVector strides, int64_t offset);

  void* pyobj() const { return pyobj_; }
  void set_pyobj(void* obj) { pyobj_ = obj; }
  bool owns_pyobj() const { return owns_pyobj_; }
  void set_owns_pyobj(bool owns) { owns_pyobj_ = owns; }
  // Called, from any thread, with the object a dying TensorImpl owns.
  using PyObjReleaseHook = void (*)(void* obj);
  static void set_pyobj_release_hook(PyObjReleaseHook hook);

  // The tensor this one is a view of (the root of a chain of views), or null.
  TensorImpl* base() const { return base_.get(); }
  void set_base(intrusive_ptr<TensorImpl> base) { base_ = std::move(base); }

  // What autograd knows of the tensor (wick/autograd/variable.h); null for most tensors.
  autograd::AutogradMeta* autograd_meta() const { return autograd_meta_.get(); }
  autograd::AutogradMeta& ensure_autograd_meta();
  void clear_autograd_meta();

 private:
  void refresh();

  Storage storage_;
  DimVector sizes_;
  DimVector strides_;
  int64_t offset_;
  int64_t numel_ = 1;
  DType dtype_;
  bool contiguous_ = true;
  bool owns_pyobj_ = false;  // See Note [Python object slot]
  void* pyobj_ = nullptr;
  intrusive_ptr<TensorImpl> base_;
  std::unique_ptr<autograd::AutogradMeta> autograd_meta_;
};

// A handle to a TensorImpl; copies share it. A default-constructed Tensor is undefined.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return bool(impl_); }
  TensorImpl* impl() const { return impl_.get(); }
  // A handle to the tensor this one is a view of; undefined when it is not a view.
  Tensor base() const { return Tensor(intrusive_ptr<TensorImpl>(impl_->base())); }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  DType dtype() const { return impl_->dtype(); }
  Device device() const { return impl_->device(); }
  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  // IndexError for a 0-d tensor, which has no dims to ask about.
  int64_t size(int64_t d) const { return impl_->sizes()[size_t(existing_dim(d))]; }
  int64_t stride(int64_t d) const { return impl_->strides()[size_t(existing_dim(d))]; }
  int64_t dim() const { return impl_->dim(); }
  int64_t numel() const { return impl_->numel(); }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  int64_t itemsize() const { return wick::itemsize(dtype()); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  const Storage& storage() const { return impl_->storage(); }

  // Address of element [0, 0, ...]; null only for tensors with no bytes.
  char* data_ptr() const {
    char* base = static_cast<char*>(storage()->data());
    return base ? base + storage_offset() * itemsize() : nullptr;
  }
  template <typename T> T* data() const { return reinterpret_cast<T*>(data_ptr()); }

  // Maps a possibly negative dim into [0, dim()); IndexError when out of range.
  // A 0-d tensor accepts 0 and -1, as reductions over "its" dim do.
  int64_t wrap_dim(int64_t d) const;
  // As wrap_dim, but the dim must exist: IndexError for any dim of a 0-d tensor.
  int64_t existing_dim(int64_t d) const;

 private:
  intrusive_ptr<TensorImpl> impl_;
};

// Note [set_]
// ~~~~~~~~~~~
// x.set_(storage, offset, sizes, strides) re-points x at any geometry over any
// storage of its device, so every number is checked first, in checked
// arithmetic: the sizes, strides and offset are non-negative, and the bytes
// from the offset to past the furthest element addressed lie inside the
// storage. Unlike PyTorch 1.13, which grows a storage that is too small, an
// extent outside it is refused, as later PyTorch does. set_ writes x in place:
// it bumps the version of the storage x ends on (Note [Version counter]), and
// autograd refuses it on a leaf that requires grad; as PyTorch has no
// derivative for it either, it refuses to record one (in grad mode, on or from
// a tensor that requires grad) rather than fail in backward().
void set_(const Tensor& self, Storage storage, int64_t offset, IntArrayRef sizes,
          std::optional<IntArrayRef> strides = std::nullopt);
// self takes the storage and geometry of source, which must have its dtype and device.
void set_(const Tensor& self, const Tensor& source);
// self becomes an empty tensor (of shape [0]) over a new storage of no bytes.
void set_(const Tensor& self);

// "[2, 3]", as PyTorch prints sizes in messages.
std::string shape_str(IntArrayRef sizes);
// Maps d into [0, ndim) for a tensor of `ndim` dims (0-d tensors accept -1 and 0).
int64_t wrap_dim(int64_t d, int64_t ndim);
// Strides of a contiguous (row-major) tensor of these sizes.
DimVector contiguous_strides(IntArrayRef sizes);
// Product of sizes, with ValueError-free overflow detection: OutOfMemoryError when it overflows.
int64_t checked_numel(IntArrayRef sizes);

}  // namespace wick
