// core/src/factory.cpp: tensors made from sizes and values (empty, zeros, ones, full, arange, linspace,
// logspace, eye), random ones (rand, randn, randint, randperm) and the *_like forms of each.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "cpu_random.h"
#include "wick/core_ops.h"
#include "wick/cpu/level.h"
#include "wick/cpu/parallel.h"
#include "wick/dispatch.h"
#include "wick/generator.h"
#include "wick/ops/add.h"
#include "wick/ops/arange.h"
#include "wick/ops/copy_.h"
#include "wick/ops/empty.h"
#include "wick/ops/empty_like_with.h"
#include "wick/ops/eye.h"
#include "wick/ops/fill_.h"
#include "wick/ops/full.h"
#include "wick/ops/full_like.h"
#include "wick/ops/linspace.h"
#include "wick/ops/logspace.h"
#include "wick/ops/manual_seed.h"
#include "wick/ops/mul.h"
#include "wick/ops/normal_.h"
#include "wick/ops/ones.h"
#include "wick/ops/ones_like.h"
#include "wick/ops/rand.h"
#include "wick/ops/rand_like.h"
#include "wick/ops/randint.h"
#include "wick/ops/randn.h"
#include "wick/ops/randn_like.h"
#include "wick/ops/randperm.h"
#include "wick/ops/to.h"
#include "wick/ops/uniform_.h"
#include "wick/ops/zero_.h"
#include "wick/ops/zeros.h"
#include "wick/ops/zeros_like.h"

namespace wick {
namespace {

Device resolve(std::optional<Device> device) {
  const Device d = device.value_or(kCPU);
  if (d.is_cuda()) cuda_runtime::check_available();
  return d;
}

// Note [Random draws]
// ~~~~~~~~~~~~~~~~~~~
// Every draw comes from a wick::Generator (wick/generator.h), the one given or the default one, on the
// CPU whatever the device of the result; a call draws all its bits under the generator's lock, so calls
// that share a generator take whole runs of its stream, never interleaved ones.
// rand draws k / 2^b for each element, with k of b
// random bits and b the bits of the dtype's significand (53 for float64, 24 for
// float32, 11 for float16, 8 for bfloat16), as PyTorch's uniform_real does: the
// value is exact in the dtype, so rounding never makes it 1. A 64-bit draw of the
// engine gives two such uniforms where b <= 32 (its low half first), one otherwise.
// randn draws uniforms of its compute type (float for the 16-bit dtypes) the same
// way, then, outside the lock and in parallel, turns each chunk of kNormalChunk of
// them into normals by Box-Muller, as PyTorch's normal_fill does over chunks of 16:
// u1 from the first half and u2 from the second give a radius sqrt(-2 log(1 - u1))
// (1 - u1 is in (0, 1], so no log of 0) and an angle 2 pi u2, and the radius times
// the cosine and the sine fill the chunk's first and second halves. A size that is
// not a multiple of the chunk draws one more whole chunk and keeps its head. So the
// values depend on the seed and the size alone: never on the threads, and the pairs
// never on the vector width (only SLEEF's last bit may differ between instruction sets).
// Both loops run at the CPU level (core/src/cpu_random.cpp).

}  // namespace
// Each CPU level's, one entry (cpu_random.cpp).
WICK_FOR_EACH_CPU_LEVEL(WICK_CPU_LEVEL_TABLE, RandomKernels, random_cpu_kernels, 1)
namespace {

// The loops of the CPU level chosen at load time, for results of type T.
template <typename T>
const RandomLoops<T>& random_loops() {
  static constexpr const RandomKernels* kLevels[kNumCpuLevels] = {
      WICK_FOR_EACH_CPU_LEVEL(WICK_CPU_LEVEL_ENTRY, random_cpu_kernels, 0)};
  return kLevels[detail::cpu_level]->loops<T>();
}

// Fill a contiguous CPU tensor of a floating dtype with uniforms, or normals, from g (Note [Random draws]).
void fill_uniform(Tensor& t, Generator& g) {
  dispatch_floating(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    g.locked([&](std::mt19937_64& engine) { random_loops<T>().uniforms(engine, t.data<T>(), t.numel()); });
  });
}
using Fill = void (*)(Tensor&, Generator&);

void fill_normal(Tensor& t, Generator& g) {
  dispatch_floating(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    T* out = t.data<T>();
    const int64_t n = t.numel(), whole = n / kNormalChunk * kNormalChunk;
    // The whole chunks' uniforms: in place where the dtype is the compute type, else in a buffer.
    std::unique_ptr<C[]> buffer;
    C* u = nullptr;
    if constexpr (std::is_same_v<T, C>) {
      u = out;
    } else {
      buffer.reset(new C[size_t(whole)]);
      u = buffer.get();
    }
    std::array<C, kNormalChunk> last;
    g.locked([&](std::mt19937_64& engine) {
      random_loops<C>().uniforms(engine, u, whole);
      if (whole < n) random_loops<C>().uniforms(engine, last.data(), kNormalChunk);
    });
    const auto to_normals = random_loops<T>().normals;
    detail::parallel_for(whole / kNormalChunk, detail::kGrainSize / kNormalChunk, [&](int64_t begin, int64_t end) {
      to_normals(u + begin * kNormalChunk, out + begin * kNormalChunk, end - begin);
    });
    if (whole < n) {
      std::array<T, kNormalChunk> head;
      to_normals(last.data(), head.data(), 1);
      std::copy_n(head.data(), n - whole, out + whole);
    }
  });
}

// rand or randn: check the dtype and the device, fill a contiguous CPU tensor, move it to the device.
Tensor random(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device, Generator* generator,
              Fill fill) {
  const DType d = dtype.value_or(default_float());
  WICK_CHECK_TYPE(is_floating(d), "expected a floating-point dtype, got ", dtype_name(d));
  const Device target = resolve(device);
  Generator& g = generator_for(generator, target);
  Tensor values = empty(size, d, kCPU);
  fill(values, g);
  return to(values, target);
}

// Note [Strides of *_like results]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch's preserve_format: a result made "like" a tensor keeps its memory
// layout. A tensor whose elements fill a block of memory without gaps or
// overlaps (a transpose, a permutation) lends its strides as they are; any other
// (a slice with a step, an expanded tensor) gets dense strides that visit its
// dims in the same order of stride, ties and 0 strides keeping the row-major order.
// memory_format= asks for another layout instead (wick/memory_format.h).
bool non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  DimVector perm;
  for (size_t d = 0; d < sizes.size(); ++d) perm.push_back(int64_t(d));
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[size_t(a)] < 2) return false;
    if (sizes[size_t(b)] < 2) return true;
    return strides[size_t(a)] < strides[size_t(b)];
  });
  int64_t expected = 1;
  for (int64_t d : perm) {
    if (sizes[size_t(d)] < 2) return true;
    if (strides[size_t(d)] != expected || __builtin_mul_overflow(expected, sizes[size_t(d)], &expected)) return false;
  }
  return true;
}

DimVector dense_strides_like(IntArrayRef sizes, IntArrayRef strides) {
  const size_t ndim = sizes.size();
  if (non_overlapping_and_dense(sizes, strides)) return strides.vec();
  // perm[0] is the innermost dim; an insertion sort that moves no dim of stride 0, as PyTorch's.
  DimVector perm(ndim);
  for (size_t i = 0; i < ndim; ++i) perm[i] = int64_t(ndim - 1 - i);
  auto should_swap = [&](int64_t d0, int64_t d1) {
    const int64_t s0 = strides[size_t(d0)], s1 = strides[size_t(d1)];
    if (s0 == 0 || s1 == 0) return 0;
    if (s0 != s1) return s0 < s1 ? -1 : 1;
    return sizes[size_t(d0)] > sizes[size_t(d1)] ? 1 : 0;
  };
  for (size_t i = 1; i < ndim; ++i) {
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      const size_t d0 = i - j;
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  DimVector result(ndim);
  int64_t stride = 1;
  for (int64_t d : perm) {
    result[size_t(d)] = stride;
    // Past int64 only beside a dim of size 0: then no layout is better than row-major.
    if (sizes[size_t(d)] > 1 && __builtin_mul_overflow(stride, sizes[size_t(d)], &stride)) {
      return contiguous_strides(sizes);
    }
  }
  return result;
}

// An uninitialised contiguous tensor of `size`.
Tensor empty_in(IntArrayRef size, DType dtype, Device device) {
  const int64_t numel = checked_numel(size);
  if (numel > int64_t(SIZE_MAX / 2) / itemsize(dtype)) {
    throw OutOfMemoryError("the size " + shape_str(size) + " needs more bytes than memory can hold");
  }
  Storage storage = allocate_storage(size_t(numel) * size_t(itemsize(dtype)), device);
  return make_tensor(std::move(storage), dtype, size.vec(), contiguous_strides(size), 0);
}

// A new contiguous tensor laid out with `strides` instead: another dense layout of its sizes, over
// the same elements.
Tensor relaid(Tensor t, DimVector strides) {
  if (IntArrayRef(strides) != t.strides()) t.impl()->set_geometry(t.storage(), t.sizes().vec(), std::move(strides), 0);
  return t;
}

// An uninitialised tensor shaped like `self` and laid out in `memory_format` (None: self's layout,
// Note [Strides of *_like results]); dtype and device default to its own.
Tensor like(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
            std::optional<MemoryFormat> memory_format) {
  WICK_CHECK_VALUE(self.defined(), "expected a tensor, got None");
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  Tensor result = empty_in(self.sizes(), dtype.value_or(self.dtype()), device.value_or(self.device()));
  if (format == MemoryFormat::Preserve && self.strides() == result.strides()) return result;  // row-major already
  return relaid(std::move(result), format == MemoryFormat::Preserve ? dense_strides_like(self.sizes(), self.strides())
                                                                    : memory_format_strides(self.sizes(), format));
}

// The value of element i of linspace (or of the exponents of logspace): PyTorch's formula, which
// meets `end` exactly by counting the second half back from it.
template <typename Step>
Step spaced(Step start, Step end, Step step, int64_t i, int64_t steps) {
  return i < steps / 2 ? start + step * Step(i) : end - step * Step(steps - i - 1);
}

// The integers every value of dtype `d` holds exactly: [lo, hi].
std::pair<double, double> exact_integer_range(DType d) {
  return dispatch(d, [&](auto tag) -> std::pair<double, double> {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) return {0.0, 1.0};
    else if constexpr (std::is_integral_v<T>) {
      return {double(std::numeric_limits<T>::min()), double(std::numeric_limits<T>::max())};
    } else {
      return {-std::ldexp(1.0, kSignificandBits<T>), std::ldexp(1.0, kSignificandBits<T>)};
    }
  });
}

// rand_like or randn_like: the values random() gives for self's sizes, laid out like self; a
// contiguous CPU result is filled in place, as random() fills its own.
Tensor random_like(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
                   std::optional<MemoryFormat> memory_format, Fill fill) {
  Tensor result = like(self, dtype, device, memory_format);
  WICK_CHECK_TYPE(is_floating(result.dtype()), "expected a floating-point dtype, got ",
                  dtype_name(result.dtype()));
  if (result.device().is_cpu() && result.is_contiguous()) {
    fill(result, default_generator());
    return result;
  }
  return copy_(result, random(self.sizes(), result.dtype(), result.device(), nullptr, fill));
}

}  // namespace

Tensor empty(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device,
             std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  WICK_CHECK(format != MemoryFormat::Preserve, "preserve memory format is unsupported by the empty operator");
  Tensor result = empty_in(size, dtype.value_or(default_float()), resolve(device));
  return format == MemoryFormat::Contiguous ? result : relaid(std::move(result), memory_format_strides(size, format));
}

Tensor zeros(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  return zero_(empty(size, dtype, device));
}

Tensor ones(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device) {
  return fill_(empty(size, dtype, device), 1);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<DType> dtype, std::optional<Device> device) {
  const DType natural = fill_value.is_floating_point() ? default_float() : fill_value.natural_dtype();
  return fill_(empty(size, dtype.value_or(natural), device), fill_value);
}

// PyTorch reads the bounds and the step as values of the dtype's accumulate type: int64
// for integer dtypes (so arange(0.5, 3, dtype=int32) starts at 0, and a step of 0.5 is
// 0), float for 16-bit floats, double otherwise. The count comes from the Python
// numbers in double, except for int64, where it comes from the int64 values.
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<DType> dtype,
              std::optional<Device> device) {
  const bool any_float = start.is_floating_point() || end.is_floating_point() || step.is_floating_point();
  const DType d = dtype.value_or(any_float ? default_float() : DType::Int64);
  WICK_CHECK_TYPE(d != DType::Bool, "not implemented for 'Bool'");  // as PyTorch
  const DType acc = !is_floating(d) ? DType::Int64 : itemsize(d) == 2 ? DType::Float32 : DType::Float64;
  const Scalar first = checked_convert(start, acc), last = checked_convert(end, acc), by = checked_convert(step, acc);
  const double lo = first.to_double(), hi = last.to_double(), st = by.to_double();
  WICK_CHECK_VALUE(st != 0, "step must be nonzero");
  WICK_CHECK_VALUE(std::isfinite(lo) && std::isfinite(hi), "unsupported range: ", lo, " -> ", hi);
  WICK_CHECK_VALUE((st > 0 && hi >= lo) || (st < 0 && hi <= lo),
                   "upper bound and larger bound inconsistent with step sign");
  // As PyTorch: int64 counts its own bounds, exactly (in 128 bits: last - first of two int64s may not fit
  // in 64); other dtypes count the bounds as given, in double.
  const double count =
      d == DType::Int64 ? double((__int128(last.to_int64()) - first.to_int64() + by.to_int64() - (st > 0 ? 1 : -1)) /
                                 by.to_int64())
                        : std::ceil((end.to_double() - start.to_double()) / step.to_double());
  WICK_CHECK_VALUE(count >= 0 && count < 9.0e18, "invalid number of elements ", count);
  Tensor out = empty({int64_t(count)}, d, kCPU);
  dispatch(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      // first + i * by lies between first and last; modulo 2**64 the terms may wrap on the way.
      if constexpr (std::is_integral_v<T>) p[i] = T(uint64_t(first.to_int64()) + uint64_t(i) * uint64_t(by.to_int64()));
      else p[i] = T(opmath_t<T>(lo + double(i) * st));
    }
  });
  return to(out, resolve(device));
}

Tensor arange(const Scalar& end, std::optional<DType> dtype, std::optional<Device> device) {
  return arange(Scalar(int64_t(0)), end, Scalar(int64_t(1)), dtype, device);
}

Tensor rand(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device, Generator* generator) {
  return random(size, dtype, device, generator, fill_uniform);
}

Tensor randn(IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device, Generator* generator) {
  return random(size, dtype, device, generator, fill_normal);
}

namespace {

// uniform_ and normal_: values drawn as rand() and randn() draw them, then scaled, moved and written into self.
const Tensor& redraw(const char* op, const Tensor& self, Generator* generator, Fill fill, double scale,
                     double shift) {
  WICK_CHECK_TYPE(is_floating(self.dtype()), op, "(): expected a floating-point tensor, got ",
                  dtype_name(self.dtype()));
  Generator& g = generator_for(generator, self.device());
  Tensor values = empty(self.sizes(), self.dtype(), kCPU);
  fill(values, g);
  add_(mul_(values, scale), shift);
  return copy_(self, values);
}

}  // namespace

const Tensor& uniform_(const Tensor& self, double low, double high, Generator* generator) {
  WICK_CHECK(low <= high, "uniform_ expects to return a [from, to) range, but found from=", low, " > to=", high);
  return redraw("uniform_", self, generator, fill_uniform, high - low, low);
}

const Tensor& normal_(const Tensor& self, double mean, double std, Generator* generator) {
  WICK_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return redraw("normal_", self, generator, fill_normal, std, mean);
}

void manual_seed(int64_t seed) { default_generator().manual_seed(uint64_t(seed)); }

namespace {

// The checked, uninitialised CPU result of linspace and logspace.
Tensor spaced_output(const Scalar& start, const Scalar& end, int64_t steps,
                     std::optional<DType> dtype) {
  WICK_CHECK_VALUE(steps >= 0, "number of steps must be non-negative, got ", steps);
  const DType d = dtype.value_or(default_float());
  WICK_CHECK_TYPE(d != DType::Bool, "not implemented for 'Bool'");
  check_convertible(start, d);  // they are values of the dtype first
  check_convertible(end, d);
  return empty({steps}, d, kCPU);
}

}  // namespace

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype,
                std::optional<Device> device) {
  Tensor out = spaced_output(start, end, steps, dtype);
  const DType d = out.dtype();
  dispatch(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // PyTorch's formula: integers step in double and truncate, floats step in their own precision
    // (16-bit ones in float). PyTorch's vectorised CPU kernel evaluates it slightly differently, so
    // some of its values lie one unit (integers) or one rounding (floats) away from these.
    using Step = std::conditional_t<std::is_integral_v<T>, double, opmath_t<T>>;
    T* p = out.data<T>();
    const Step s = Step(start.to<T>()), e = Step(end.to<T>());
    if (steps == 1) p[0] = start.to<T>();
    if (steps < 2) return;
    const Step step = (e - s) / Step(steps - 1);
    for (int64_t i = 0; i < steps; ++i) p[i] = T(spaced(s, e, step, i, steps));
  });
  return to(out, resolve(device));
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, std::optional<DType> dtype,
                std::optional<Device> device) {
  Tensor out = spaced_output(start, end, steps, dtype);
  const DType d = out.dtype();
  dispatch(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.data<T>();
    if (steps == 1) p[0] = T(opmath_t<T>(std::pow(base, start.to_double())));
    if (steps < 2) return;
    // The exponents are linspace's between start and end as values of the dtype (an integer dtype
    // truncates them), in double.
    const double s = double(opmath_t<T>(start.to<T>())), e = double(opmath_t<T>(end.to<T>()));
    const double step = (e - s) / double(steps - 1);
    for (int64_t i = 0; i < steps; ++i) p[i] = T(opmath_t<T>(std::pow(base, spaced(s, e, step, i, steps))));
  });
  return to(out, resolve(device));
}

Tensor eye(int64_t n, int64_t m, std::optional<DType> dtype, std::optional<Device> device) {
  WICK_CHECK_VALUE(n >= 0, "n must be greater or equal to 0, got ", n);
  WICK_CHECK_VALUE(m >= 0, "m must be greater or equal to 0, got ", m);
  Tensor out = zeros({n, m}, dtype.value_or(default_float()), kCPU);
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.data<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) p[i * m + i] = T(opmath_t<T>(1));
  });
  return to(out, resolve(device));
}

Tensor eye(int64_t n, std::optional<DType> dtype, std::optional<Device> device) { return eye(n, n, dtype, device); }

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device,
               Generator* generator) {
  const DType d = dtype.value_or(DType::Int64);
  WICK_CHECK_VALUE(low < high, "random_ expects 'from' to be less than 'to', but got from=", low,
                   " >= to=", high);
  const auto [lo, hi] = exact_integer_range(d);
  if (!is_floating(d)) {
    WICK_CHECK_VALUE(double(low) >= lo, "from=", low, " is out of bounds for ", dtype_name(d));
    WICK_CHECK_VALUE(double(high - 1) <= hi, "to - 1 = ", high - 1, " is out of bounds for ",
                     dtype_name(d));
  } else if (double(low) < lo || double(high - 1) > hi) {
    warn("randint(): [", low, ", ", high - 1, "] reaches beyond [", lo, ", ", hi, "], the integers that ",
         dtype_name(d), " holds exactly: values may repeat or be missing");
  }
  const Device target = resolve(device);
  Generator& g = generator_for(generator, target);
  Tensor out = empty(size, d, kCPU);
  const uint64_t range = uint64_t(high) - uint64_t(low);
  g.locked([&](std::mt19937_64& engine) {
    dispatch(d, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* p = out.data<T>();
      for (int64_t i = 0; i < out.numel(); ++i) {
        const int64_t v = int64_t(uint64_t(low) + engine() % range);
        if constexpr (std::is_same_v<T, bool>) p[i] = v != 0;
        else p[i] = T(opmath_t<T>(v));
      }
    });
  });
  return to(out, target);
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<DType> dtype, std::optional<Device> device,
               Generator* generator) {
  return randint(0, high, size, dtype, device, generator);
}

Tensor randperm(int64_t n, std::optional<DType> dtype, std::optional<Device> device, Generator* generator) {
  WICK_CHECK_VALUE(n >= 0, "n must be non-negative, got ", n);
  const DType d = dtype.value_or(DType::Int64);
  WICK_CHECK_TYPE(d != DType::Bool, "not implemented for 'Bool'");
  WICK_CHECK_VALUE(n == 0 || double(n - 1) <= exact_integer_range(d).second, "n=", n,
                   " is too large for result tensor type ", dtype_name(d), ", which holds integers up to ",
                   exact_integer_range(d).second, " exactly");
  const Device target = resolve(device);
  Generator& g = generator_for(generator, target);
  Tensor perm = empty({n}, DType::Int64, kCPU);  // before any work: MemoryError when n is too large
  int64_t* p = perm.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  g.locked([&](std::mt19937_64& engine) {
    for (int64_t i = 0; i + 1 < n; ++i) {  // Fisher-Yates, front to back
      const int64_t z = int64_t(engine() % uint64_t(n - i));
      std::swap(p[i], p[i + z]);
    }
  });
  return to(perm, target, d);
}

Tensor empty_like_with(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
                       std::optional<MemoryFormat> memory_format) {
  return like(self, dtype, device, memory_format);
}

Tensor zeros_like(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  return zero_(like(self, dtype, device, memory_format));
}

Tensor ones_like(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format) {
  return fill_(like(self, dtype, device, memory_format), 1);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<DType> dtype,
                 std::optional<Device> device, std::optional<MemoryFormat> memory_format) {
  return fill_(like(self, dtype, device, memory_format), fill_value);
}

Tensor rand_like(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format) {
  return random_like(self, dtype, device, memory_format, fill_uniform);
}

Tensor randn_like(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  return random_like(self, dtype, device, memory_format, fill_normal);
}

}  // namespace wick
