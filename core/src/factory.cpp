// core/src/factory.cpp: tensors made from sizes and values: empty, zeros, ones, full, arange, rand, randn.
#include <cmath>
#include <mutex>
#include <random>

#include "wick/core_ops.h"
#include "wick/dispatch.h"
#include "wick/ops.h"

namespace wick {
namespace {

Device resolve(std::optional<Device> device) {
  const Device d = device.value_or(kCPU);
  if (d.is_cuda()) cuda_runtime::check_available("creating a tensor");
  return d;
}

// One generator for rand and randn, seeded by manual_seed; draws happen on the CPU.
struct Generator {
  std::mutex mutex;
  std::mt19937_64 engine{std::mt19937_64::default_seed};
};
Generator& generator() {
  static Generator g;
  return g;
}

template <typename Draw>
Tensor random(const char* op, IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device, Draw draw) {
  const DType d = dtype.value_or(kDefaultFloat);
  WICK_CHECK_TYPE(is_floating(d), op, "(): expected a floating-point dtype, got ", dtype_name(d));
  Tensor values = empty(size, DType::Float64, kCPU);
  {
    Generator& g = generator();
    std::lock_guard<std::mutex> lock(g.mutex);
    double* p = values.data<double>();
    for (int64_t i = 0; i < values.numel(); ++i) p[i] = draw(g.engine);
  }
  return to(values, resolve(device), d);
}

}  // namespace

Tensor empty(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  const DType d = dtype.value_or(kDefaultFloat);
  const int64_t numel = checked_numel(size);
  if (numel > int64_t(SIZE_MAX / 2) / itemsize(d)) {
    throw OutOfMemoryError("empty(): the size " + shape_str(size) + " needs more bytes than memory can hold");
  }
  Storage storage = allocate_storage(size_t(numel) * size_t(itemsize(d)), resolve(device));
  return make_tensor(std::move(storage), d, size.vec(), contiguous_strides(size), 0);
}

Tensor zeros(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  return zero_(empty(size, dtype, device));
}

Tensor ones(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  return fill_(empty(size, dtype, device), 1);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<DType> dtype, std::optional<Device> device) {
  const DType natural = fill_value.is_floating_point() ? kDefaultFloat : fill_value.natural_dtype();
  return fill_(empty(size, dtype.value_or(natural), device), fill_value);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<DType> dtype,
              std::optional<Device> device) {
  const bool any_float = start.is_floating_point() || end.is_floating_point() || step.is_floating_point();
  const DType d = dtype.value_or(any_float ? kDefaultFloat : DType::Int64);
  const double lo = start.to_double(), hi = end.to_double(), st = step.to_double();
  WICK_CHECK_VALUE(st != 0, "arange(): step must be nonzero");
  WICK_CHECK_VALUE(std::isfinite(lo) && std::isfinite(hi), "arange(): unsupported range: ", lo, " -> ", hi);
  WICK_CHECK_VALUE((st > 0 && hi >= lo) || (st < 0 && hi <= lo),
                   "arange(): upper bound and larger bound inconsistent with step sign");
  const double count = any_float ? std::ceil((hi - lo) / st)
                                 : double((end.to_int64() - start.to_int64() + step.to_int64() -
                                           (step.to_int64() > 0 ? 1 : -1)) / step.to_int64());
  WICK_CHECK_VALUE(count >= 0 && count < 9.0e18, "arange(): invalid number of elements ", count);
  Tensor out = empty({int64_t(count)}, d, kCPU);
  dispatch(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      if (any_float) p[i] = T(opmath_t<T>(lo + double(i) * st));
      else p[i] = T(opmath_t<T>(start.to_int64() + i * step.to_int64()));
    }
  });
  return to(out, resolve(device));
}

Tensor arange(const Scalar& end, std::optional<DType> dtype, std::optional<Device> device) {
  return arange(Scalar(int64_t(0)), end, Scalar(int64_t(1)), dtype, device);
}

Tensor rand(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  return random("rand", size, dtype, device, [](std::mt19937_64& e) {
    return double(e() >> 11) * 0x1.0p-53;  // 53 random bits: uniform in [0, 1)
  });
}

Tensor randn(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  std::normal_distribution<double> normal;
  return random("randn", size, dtype, device, [&](std::mt19937_64& e) { return normal(e); });
}

void manual_seed(int64_t seed) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.engine.seed(uint64_t(seed));
}

}  // namespace wick
