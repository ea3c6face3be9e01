// tests/cpp/test_storage.cpp: storage sharing and lifetime, zero-byte storage, and allocation failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "wick/core_ops.h"
#include "wick/ops/resize_.h"
#include "wick/ops/add.h"
#include "wick/ops/arange.h"
#include "wick/ops/clone.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/full.h"
#include "wick/ops/item.h"
#include "wick/ops/max.h"
#include "wick/ops/mm.h"
#include "wick/ops/mv.h"
#include "wick/ops/reshape.h"
#include "wick/ops/select.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/view.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

// A storage over malloc'd memory whose deleter counts its calls, so a leak
// (never called) or a double free (called twice) shows up as a wrong count.
struct DeleteCounter {
  int calls = 0;
};

void counting_free(void* data, void* ctx) {
  std::free(data);
  ++static_cast<DeleteCounter*>(ctx)->calls;
}

Tensor counted_tensor(DeleteCounter* counter, int64_t n) {
  void* data = std::malloc(size_t(n) * sizeof(float));
  Storage storage = Storage::make(data, size_t(n) * sizeof(float), kCPU, &counting_free, counter);
  Tensor t = make_tensor(std::move(storage), DType::Float32, {n}, {1}, 0);
  float* p = t.data<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = float(i);
  return t;
}

TEST(Storage, ViewsShareOneStorage) {
  Tensor a = arange(6, DType::Int64);
  EXPECT_EQ(a.storage()->use_count(), 1u);

  Tensor v = view(a, {2, 3});
  Tensor tr = transpose(v, 0, 1);
  Tensor s = select(a, 0, 2);
  EXPECT_EQ(v.storage().get(), a.storage().get());
  EXPECT_EQ(tr.storage().get(), a.storage().get());
  EXPECT_EQ(s.storage().get(), a.storage().get());
  // One reference per TensorImpl that points at it.
  EXPECT_EQ(a.storage()->use_count(), 4u);
  EXPECT_EQ(s.data_ptr(), a.data_ptr() + 2 * sizeof(int64_t));
}

TEST(Storage, CopiedHandlesShareTheImplNotJustTheStorage) {
  Tensor a = zeros({3});
  EXPECT_EQ(a.impl()->use_count(), 1u);
  {
    Tensor b = a;
    EXPECT_TRUE(b.is_same(a));
    EXPECT_EQ(a.impl()->use_count(), 2u);
    EXPECT_EQ(a.storage()->use_count(), 1u);  // still one TensorImpl
  }
  EXPECT_EQ(a.impl()->use_count(), 1u);
  Tensor moved = std::move(a);
  EXPECT_EQ(moved.impl()->use_count(), 1u);
  EXPECT_FALSE(a.defined());  // NOLINT(bugprone-use-after-move): a moved-from handle is undefined
}

TEST(Storage, ViewKeepsStorageAliveAfterBaseIsDropped) {
  DeleteCounter counter;
  Tensor v;
  {
    Tensor base = counted_tensor(&counter, 8);
    v = slice(base, 0, 2, 8, 3);  // elements 2 and 5
    EXPECT_EQ(base.storage()->use_count(), 2u);
  }
  EXPECT_EQ(counter.calls, 0) << "the view's storage was freed under it";
  // The view and its base, which the view keeps alive as base().
  EXPECT_EQ(v.storage()->use_count(), 2u);
  EXPECT_EQ(v.base().storage().get(), v.storage().get());
  ASSERT_EQ(v.numel(), 2);
  EXPECT_EQ(v.data<float>()[0], 2.0f);
  EXPECT_EQ(v.data<float>()[v.stride(0)], 5.0f);

  v = Tensor();
  EXPECT_EQ(counter.calls, 1) << "the storage must be freed exactly once, with the last view";
}

TEST(Storage, ReshapeCopyDoesNotHoldTheOldStorage) {
  DeleteCounter counter;
  Tensor copy;
  {
    Tensor base = counted_tensor(&counter, 6);
    Tensor strided = transpose(view(base, {2, 3}), 0, 1);
    copy = reshape(strided, {6});  // not viewable: a copy into new storage
    EXPECT_NE(copy.storage().get(), base.storage().get());
  }
  EXPECT_EQ(counter.calls, 1);
  const float expected[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(copy.data<float>()[i], expected[i]) << "at " << i;
}

TEST(Storage, OpsReleaseEveryReferenceTheyTake) {
  DeleteCounter counter;
  {
    Tensor x = counted_tensor(&counter, 12);
    Tensor m = view(x, {3, 4});
    Tensor mt = transpose(m, 0, 1);
    add_(slice(x, 0, 1, std::nullopt, 1), slice(x, 0, std::nullopt, -1, 1));  // clones the overlapping input
    copy_(slice(x, 0, 1, std::nullopt, 1), slice(x, 0, std::nullopt, -1, 1));
    Tensor results[] = {reshape(mt, {12}), contiguous(mt), clone(m),       sum(m, {0}),
                        mm(m, mt),         mv(m, select(mt, 1, 0)),          to(m, DType::Float64),
                        add(m, Scalar(1)), add_out(empty({0}), mt, Scalar(1.0)), max(mt)};
    for (const Tensor& r : results) {
      EXPECT_NE(r.storage().get(), x.storage().get());
      EXPECT_EQ(r.storage()->use_count(), 1u);
      EXPECT_EQ(r.impl()->use_count(), 1u);
    }
    EXPECT_EQ(x.storage()->use_count(), 3u);  // x, m and mt, nothing else
    EXPECT_EQ(x.impl()->use_count(), 3u);     // x, and m and mt, whose base() it is
    EXPECT_EQ(m.impl()->use_count(), 1u);
    EXPECT_EQ(counter.calls, 0);
  }
  EXPECT_EQ(counter.calls, 1);
}

TEST(Storage, ZeroBytesMeansNullDataButAStorage) {
  for (const DimVector& shape : {DimVector{0}, DimVector{3, 0}, DimVector{0, 5, 2}}) {
    Tensor t = empty(shape, DType::Float64);
    ASSERT_TRUE(t.storage()) << "storage is never null, shape " << shape_str(shape);
    EXPECT_EQ(t.storage()->data(), nullptr);
    EXPECT_EQ(t.storage()->nbytes(), 0u);
    EXPECT_EQ(t.data_ptr(), nullptr);
    EXPECT_EQ(t.numel(), 0);
    EXPECT_EQ(t.storage()->device(), kCPU);
  }
  Storage s = allocate_storage(0, kCPU);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->data(), nullptr);
}

TEST(Storage, AlignmentGrowsWithSize) {
  // Note [Huge pages] in core/src/storage.cpp: 4 MiB and more start on a 2 MiB boundary.
  const auto address = [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()); };
  EXPECT_EQ(address(empty({1 << 20}, DType::Float32)) % (uintptr_t(2) << 20), 0u);
  EXPECT_EQ(address(empty({(1 << 20) + 3}, DType::Float64)) % (uintptr_t(2) << 20), 0u);
  EXPECT_EQ(address(empty({1000}, DType::Float32)) % 64, 0u);
  EXPECT_EQ(address(empty({3}, DType::Float32)) % 16, 0u);
}

// Note [Block cache]: a freed huge buffer serves the next request of its rounded size.
TEST(Storage, FreedHugeBuffersAreReused) {
  const int64_t n = int64_t(3) << 20;  // 12 MiB of float32
  const void* first = empty({n}).data_ptr();  // freed at once
  Tensor again = empty({n - 5});              // rounds to the same 2 MiB multiple
  EXPECT_EQ(again.data_ptr(), first);
  Tensor other = empty({n + (int64_t(1) << 20)});  // another size: not that buffer
  EXPECT_NE(other.data_ptr(), first);
  // A buffer in use is never handed out twice.
  Tensor third = empty({n});
  EXPECT_NE(third.data_ptr(), again.data_ptr());
  // Bigger than the whole cache: allocated and freed directly, still usable.
  Tensor big = full({int64_t(80) << 20}, 1.0);
  EXPECT_EQ(big.numel(), int64_t(80) << 20);
  EXPECT_EQ(item(sum(big, DType::Float64)).to_double(), double(int64_t(80) << 20));
}

TEST(Storage, ZeroDimTensorHasOneElementOfStorage) {
  Tensor t = scalar_tensor(Scalar(int64_t(7)), DType::Int16);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.numel(), 1);
  EXPECT_NE(t.data_ptr(), nullptr);
  EXPECT_EQ(t.storage()->nbytes(), sizeof(int16_t));
  EXPECT_EQ(*t.data<int16_t>(), 7);
}

TEST(Storage, AbsurdSizesThrowOutOfMemory) {
  const int64_t huge = int64_t(1) << 62;
  EXPECT_THROW(empty({huge}), OutOfMemoryError);                   // float32: bytes overflow size_t
  EXPECT_THROW(empty({huge}, DType::UInt8), OutOfMemoryError);     // fits size_t, malloc refuses
  EXPECT_THROW(empty({huge}, DType::Float64), OutOfMemoryError);
  EXPECT_THROW(empty({huge, huge}, DType::Bool), OutOfMemoryError);  // numel overflows int64
  EXPECT_THROW(zeros({int64_t(1) << 40, int64_t(1) << 30}), OutOfMemoryError);
  // OutOfMemoryError is a wick::Error, so a generic handler catches it too.
  EXPECT_THROW(empty({huge}), Error);
}

TEST(Storage, NegativeSizeIsAValueError) {
  EXPECT_THROW(empty({2, -1}), ValueError);
}

TEST(Storage, ResizeGrowsIntoNewStorageAndKeepsValues) {
  Tensor t = arange(4, DType::Int32);
  StorageImpl* before = t.storage().get();
  resize_(t, {2, 4});
  EXPECT_NE(t.storage().get(), before);
  EXPECT_EQ(t.sizes().vec(), (DimVector{2, 4}));
  EXPECT_EQ(t.strides().vec(), (DimVector{4, 1}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.data<int32_t>()[i], i);

  // Shrinking keeps the storage.
  before = t.storage().get();
  resize_(t, {3});
  EXPECT_EQ(t.storage().get(), before);
  EXPECT_EQ(t.numel(), 3);
}

}  // namespace
}  // namespace wick
