// core/src/sliding_windows.cpp: the sliding windows of 2-d convolution and pooling, on CPU: im2col() lays
// each window out as a column, col2im() sums columns back into planes (each is the other's gradient), and
// max_pool2d_with_indices() takes each window's maximum and where it is.
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "wick/core_ops.h"
#include "wick/cpu/parallel.h"
#include "wick/dispatch.h"
#include "wick/math.h"
#include "wick/ops/col2im.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/empty.h"
#include "wick/ops/im2col.h"
#include "wick/ops/max_pool2d_with_indices.h"
#include "wick/overflow.h"

namespace wick {
namespace {

// Note [Window geometry]
// ~~~~~~~~~~~~~~~~~~~~~~
// A plane of height x width is read by windows of kernel[0] x kernel[1] elements,
// `dilation` apart, that start every `stride` elements from -padding; there are
// out[0] x out[1] of them. Window (oy, ox) reads element (ky, kx) of its kernel at
// (oy * stride[0] - padding[0] + ky * dilation[0], ox * stride[1] - padding[1] + kx * dilation[1]),
// which may lie in the padding. Every quantity is computed with overflow checks
// from the user's numbers once, here; once out[d] >= 1 is known, every coordinate
// a kernel computes lies within [-padding, size + padding], so the loops need no more.
struct Windows {
  int64_t size[2];  // of a plane: height, width
  int64_t kernel[2], dilation[2], padding[2], stride[2];
  int64_t out[2];  // windows down and across
  int64_t length;  // out[0] * out[1], the number of windows
  int64_t kernel_numel;  // kernel[0] * kernel[1]

  int64_t plane() const { return size[0] * size[1]; }  // of an existing tensor: no overflow
};

std::string pair_str(const int64_t (&v)[2]) { return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ")"; }

// `v` (of 2 values, or 1 when `one_ok`, which stands for both) into `to`.
void read_pair(const char* name, IntArrayRef v, bool one_ok, int64_t (&to)[2]) {
  WICK_CHECK(v.size() == 2 || (one_ok && v.size() == 1), "expected ", name, " to have ",
             one_ok ? "1 or 2" : "2", " values, but got ", v.size());
  to[0] = v[0];
  to[1] = v[v.size() - 1];
}

// The geometry's own checks (PyTorch's messages), and the windows of a plane of `size` (height, width).
// ceil_mode (pooling's) also counts a last window that overhangs the end, if it starts inside the input or
// its padding at the start.
Windows make_windows(const int64_t (&size)[2], IntArrayRef kernel, IntArrayRef dilation,
                     IntArrayRef padding, IntArrayRef stride, bool one_ok, bool ceil_mode = false) {
  Windows w{};
  read_pair("kernel_size", kernel, one_ok, w.kernel);
  read_pair("dilation", dilation, one_ok, w.dilation);
  read_pair("padding", padding, one_ok, w.padding);
  read_pair("stride", stride, one_ok, w.stride);
  WICK_CHECK(w.kernel[0] > 0 && w.kernel[1] > 0, "kernel size should be greater than zero, but got ",
             "kernel_size=", pair_str(w.kernel));
  WICK_CHECK(w.dilation[0] > 0 && w.dilation[1] > 0, "dilation should be greater than zero, but got ",
             "dilation=", pair_str(w.dilation));
  WICK_CHECK(w.padding[0] >= 0 && w.padding[1] >= 0, "padding should be non-negative, but got padding=",
             pair_str(w.padding));
  WICK_CHECK(w.stride[0] > 0 && w.stride[1] > 0, "stride should be greater than zero, but got stride=",
             pair_str(w.stride));
  for (int d = 0; d < 2; ++d) {
    w.size[d] = size[d];
    const auto padded = add_checked(size[d], 2 * std::min<int64_t>(w.padding[d], INT64_MAX / 4));
    const auto extent = mul_checked(w.dilation[d], w.kernel[d] - 1);  // of the kernel, less one
    const bool fits = w.padding[d] < INT64_MAX / 4 && padded && extent && *extent < *padded;
    const int64_t span = fits ? *padded - *extent - 1 : 0;  // where the last window may start
    int64_t out = fits ? span / w.stride[d] + 1 + (ceil_mode && span % w.stride[d] != 0) : 0;
    // The overhanging window must start inside the input or its padding before it:
    // (out - 1) * stride < size + padding.
    if (fits && ceil_mode && out - 1 > (size[d] + w.padding[d] - 1) / w.stride[d]) --out;
    w.out[d] = out;
  }
  WICK_CHECK(w.out[0] >= 1 && w.out[1] >= 1, "given input with spatial size ", pair_str(w.size),
             ", kernel_size=", pair_str(w.kernel), ", dilation=", pair_str(w.dilation), ", padding=",
             pair_str(w.padding), ", stride=", pair_str(w.stride), ", the calculated shape of the array of sliding ",
             "blocks is ", pair_str(w.out), ", but its components must be at least one");
  w.length = or_overflow_error(mul_checked(w.out[0], w.out[1]));
  w.kernel_numel = or_overflow_error(mul_checked(w.kernel[0], w.kernel[1]));
  return w;
}

// a / b rounded up, for a >= 0 and b > 0, whatever their size.
int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

// The windows [lo, hi) of a row (of `count`) whose element at x0 + o * stride lies inside [0, size).
std::pair<int64_t, int64_t> inside(int64_t x0, int64_t stride, int64_t size, int64_t count) {
  const int64_t lo = std::min(count, x0 >= 0 ? 0 : ceil_div(-x0, stride));
  const int64_t hi = std::min(count, x0 >= size ? 0 : ceil_div(size - x0, stride));
  return {lo, std::max(lo, hi)};
}

// Rows [begin, end) of im2col's result: row r is element (r / K) of the planes' kernel offset r % K,
// over every window; a window's element in the padding is 0 (all zero bits, in every dtype).
template <typename T>
void im2col_rows(const T* in, T* out, const Windows& w, int64_t begin, int64_t end) {
  const int64_t kernel = w.kernel_numel;
  for (int64_t r = begin; r < end; ++r) {
    const T* plane = in + r / kernel * w.plane();
    const int64_t ky = r % kernel / w.kernel[1], kx = r % w.kernel[1];
    const int64_t x0 = kx * w.dilation[1] - w.padding[1];
    const auto [lo, hi] = inside(x0, w.stride[1], w.size[1], w.out[1]);
    T* dst = out + r * w.length;
    for (int64_t oy = 0; oy < w.out[0]; ++oy, dst += w.out[1]) {
      const int64_t y = oy * w.stride[0] - w.padding[0] + ky * w.dilation[0];
      if (y < 0 || y >= w.size[0]) {
        std::fill(dst, dst + w.out[1], T{});
        continue;
      }
      const int64_t row = y * w.size[1] + x0;  // where window 0 would read; window lo's is inside
      std::fill(dst, dst + lo, T{});
      if (w.stride[1] == 1) {
        std::copy(plane + row + lo, plane + row + hi, dst + lo);
      } else {
        for (int64_t ox = lo; ox < hi; ++ox) dst[ox] = plane[row + ox * w.stride[1]];
      }
      std::fill(dst + hi, dst + w.out[1], T{});
    }
  }
}

// Planes [begin, end) of col2im's result: every column element inside added at its place, in opmath (a
// buffer of floats for the half types, whose every sum would round otherwise).
template <typename T>
void col2im_planes(const T* in, T* out, const Windows& w, int64_t begin, int64_t end) {
  using Op = opmath_t<T>;
  constexpr bool in_place = std::is_same_v<T, Op>;
  std::vector<Op> buffer(in_place ? 0 : size_t(w.plane()));
  const int64_t kernel = w.kernel_numel;
  for (int64_t p = begin; p < end; ++p) {
    Op* plane = buffer.data();
    if constexpr (in_place) plane = out + p * w.plane();
    std::fill(plane, plane + w.plane(), Op(0));
    for (int64_t k = 0; k < kernel; ++k) {
      const int64_t ky = k / w.kernel[1], kx = k % w.kernel[1];
      const int64_t x0 = kx * w.dilation[1] - w.padding[1];
      const auto [lo, hi] = inside(x0, w.stride[1], w.size[1], w.out[1]);
      const T* src = in + (p * kernel + k) * w.length;
      for (int64_t oy = 0; oy < w.out[0]; ++oy, src += w.out[1]) {
        const int64_t y = oy * w.stride[0] - w.padding[0] + ky * w.dilation[0];
        if (y < 0 || y >= w.size[0]) continue;
        const int64_t row = y * w.size[1] + x0;
        for (int64_t ox = lo; ox < hi; ++ox) plane[row + ox * w.stride[1]] += Op(src[ox]);
      }
    }
    if constexpr (!in_place) std::copy(plane, plane + w.plane(), out + p * w.plane());
  }
}

// The windows of a row (of `count`, the o-th starting at o * stride - padding) whose `kernel` elements,
// `dilation` apart, all lie inside [0, size): [lo, hi), where a window needs no clipping.
std::pair<int64_t, int64_t> whole(int64_t stride, int64_t padding, int64_t kernel, int64_t dilation, int64_t size,
                                  int64_t count) {
  const int64_t lo = std::min(count, ceil_div(padding, stride));
  const int64_t last = size - 1 + padding - (kernel - 1) * dilation;  // o * stride <= last
  return {lo, last < 0 ? lo : std::max(lo, std::min(count, last / stride + 1))};
}

// Planes [begin, end) of max pooling: each window's largest element inside the plane (the last NaN where
// there is one, as PyTorch's CPU kernel) and its position in the flattened plane, which is selected without
// branching: on real data which element wins is unpredictable.
template <typename T>
void max_pool_planes(const T* in, T* values, int64_t* indices, const Windows& w, int64_t begin, int64_t end) {
  using Op = opmath_t<T>;
  const int64_t width = w.size[1], out_h = w.out[0], out_w = w.out[1], dy = w.dilation[0], dx = w.dilation[1];
  const auto [whole_lo, whole_hi] = whole(w.stride[1], w.padding[1], w.kernel[1], dx, width, out_w);
  for (int64_t p = begin; p < end; ++p) {
    const T* plane = in + p * w.plane();
    for (int64_t oy = 0; oy < out_h; ++oy) {
      const int64_t y0 = oy * w.stride[0] - w.padding[0];
      const auto [ky_lo, ky_hi] = inside(y0, dy, w.size[0], w.kernel[0]);
      for (int64_t ox = 0; ox < out_w; ++ox) {
        const int64_t x0 = ox * w.stride[1] - w.padding[1];
        const auto [kx_lo, kx_hi] = ox >= whole_lo && ox < whole_hi ? std::pair<int64_t, int64_t>{0, w.kernel[1]}
                                                                    : inside(x0, dx, width, w.kernel[1]);
        // Possible only with dilation (Note [Window geometry]); PyTorch gives such a window -inf.
        WICK_CHECK(ky_lo < ky_hi && kx_lo < kx_hi, "window (", oy, ", ", ox, ") lies entirely in ",
                   "the padding: with dilation=", pair_str(w.dilation), " and padding=", pair_str(w.padding),
                   " it reads no element of the input");
        int64_t at = (y0 + ky_lo * dy) * width + x0 + kx_lo * dx;
        for (int64_t ky = ky_lo; ky < ky_hi; ++ky) {
          const int64_t row = (y0 + ky * dy) * width + x0;
          for (int64_t kx = kx_lo; kx < kx_hi; ++kx) {
            const int64_t pos = row + kx * dx;
            const Op v = Op(plane[pos]);
            at += (pos - at) & -int64_t((v > Op(plane[at])) | isnan(v));
          }
        }
        const int64_t o = (p * out_h + oy) * out_w + ox;
        values[o] = plane[at];
        indices[o] = at;
      }
    }
  }
}

// PyTorch's checks of a tensor of planes: 3-d (unbatched) or 4-d, empty in its batch dim alone.
void check_planes(const Tensor& self) {
  detail::check_cpu(self);
  const bool nonempty = self.numel() > 0 || (self.dim() == 4 && self.size(0) == 0 && self.size(1) > 0 &&
                                             self.size(2) > 0 && self.size(3) > 0);
  WICK_CHECK((self.dim() == 3 || self.dim() == 4) && nonempty, "expected a non-empty 3D or 4D (batch ",
             "mode) tensor, but got input of size ", shape_str(self.sizes()));
}

// Runs fn(begin, end) over [0, items) split so that each range covers at least a grain of elements, where
// an item costs a * b.
template <typename Fn>
void for_items(int64_t items, int64_t a, int64_t b, const Fn& fn) {
  const int64_t cost = std::max<int64_t>(1, mul_checked(a, b).value_or(INT64_MAX));
  detail::parallel_for(items, std::max<int64_t>(1, detail::kGrainSize / cost), fn);
}

}  // namespace

Tensor im2col(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
              IntArrayRef stride) {
  check_planes(self);
  const int64_t size[2] = {self.size(-2), self.size(-1)};
  const Windows w = make_windows(size, kernel_size, dilation, padding, stride, false);
  const int64_t rows = or_overflow_error(mul_checked(self.size(-3), w.kernel_numel));
  const Tensor out = self.dim() == 4 ? empty({self.size(0), rows, w.length}, self.dtype(), self.device())
                                     : empty({rows, w.length}, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor in = contiguous(self);
  const int64_t all_rows = out.numel() / w.length;
  // A copy: one instantiation per element size.
  auto run = [&](auto tag) {
    using U = typename decltype(tag)::type;
    for_items(all_rows, w.length, 1, [&](int64_t begin, int64_t end) {
      im2col_rows(in.data<U>(), out.data<U>(), w, begin, end);
    });
  };
  switch (itemsize(self.dtype())) {
    case 1: run(TypeTag<uint8_t>{}); break;
    case 2: run(TypeTag<uint16_t>{}); break;
    case 4: run(TypeTag<uint32_t>{}); break;
    default: run(TypeTag<uint64_t>{}); break;
  }
  return out;
}

Tensor col2im(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  detail::check_cpu(self);
  WICK_CHECK_TYPE(is_floating(self.dtype()), "expected a floating point tensor, got ",
                  dtype_name(self.dtype()));
  const bool batched = self.dim() == 3;
  WICK_CHECK((self.dim() == 2 || batched) && self.size(-2) > 0 && self.size(-1) > 0,
             "expected a 2D or 3D (batch mode) tensor with non-zero dimensions besides the batch, but ",
             "got input of size ", shape_str(self.sizes()));
  int64_t size[2];
  read_pair("output_size", output_size, false, size);
  WICK_CHECK(size[0] > 0 && size[1] > 0, "output_size should be greater than zero, but got ",
             "output_size=", pair_str(size));
  const Windows w = make_windows(size, kernel_size, dilation, padding, stride, false);
  const int64_t rows = self.size(-2), kernel = w.kernel_numel;
  WICK_CHECK(rows % kernel == 0, "expected size of input's dimension ", self.dim() - 2,
             " to be divisible by the product of kernel_size, but got input.size(", self.dim() - 2, ")=", rows,
             ", kernel_size=", pair_str(w.kernel));
  WICK_CHECK(self.size(-1) == w.length, "given output_size=", pair_str(size), ", kernel_size=",
             pair_str(w.kernel), ", dilation=", pair_str(w.dilation), ", padding=", pair_str(w.padding), ", stride=",
             pair_str(w.stride), ", expected size of input's dimension ", self.dim() - 1,
             " to match the calculated number of sliding blocks ", w.out[0], " * ", w.out[1], " = ", w.length,
             ", but got input.size(", self.dim() - 1, ")=", self.size(-1));
  const int64_t channels = rows / kernel;
  const Tensor out = batched ? empty({self.size(0), channels, size[0], size[1]}, self.dtype(), self.device())
                             : empty({channels, size[0], size[1]}, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor in = contiguous(self);
  const int64_t planes = out.numel() / w.plane();
  dispatch_floating(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_items(planes, kernel, w.length, [&](int64_t begin, int64_t end) {
      col2im_planes(in.data<T>(), out.data<T>(), w, begin, end);
    });
  });
  return out;
}

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  check_planes(self);
  WICK_CHECK_TYPE(self.dtype() != DType::Bool, "not implemented for bool tensors");
  const int64_t size[2] = {self.size(-2), self.size(-1)};
  const Windows w = make_windows(size, kernel_size, dilation, padding, stride.empty() ? kernel_size : stride,
                                 true, ceil_mode);
  WICK_CHECK(2 * w.padding[0] <= w.kernel[0] && 2 * w.padding[1] <= w.kernel[1],
             "pad should be at most half of kernel size, but got pad=", pair_str(w.padding),
             " and kernel_size=", pair_str(w.kernel));
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  sizes[sizes.size() - 2] = w.out[0];
  sizes[sizes.size() - 1] = w.out[1];
  Tensor values = empty(sizes, self.dtype(), self.device());
  Tensor indices = empty(sizes, DType::Int64, self.device());
  if (values.numel() == 0) return {values, indices};
  const Tensor in = contiguous(self);
  const int64_t planes = values.numel() / w.length;
  dispatch(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      for_items(planes, w.length, w.kernel_numel, [&](int64_t begin, int64_t end) {
        max_pool_planes(in.data<T>(), values.data<T>(), indices.data<int64_t>(), w, begin, end);
      });
    }
  });
  return {values, indices};
}

}  // namespace wick
