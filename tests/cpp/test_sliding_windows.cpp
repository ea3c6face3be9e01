// tests/cpp/test_sliding_windows.cpp: im2col, col2im and max_pool2d_with_indices (core/src/sliding_windows.cpp)
// against plain loops over Note [Window geometry], on geometries with padding, strides and dilation, and on
// sizes that split between threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "helpers.h"
#include "wick/core_ops.h"
#include "wick/ops/col2im.h"
#include "wick/ops/im2col.h"
#include "wick/ops/max_pool2d_with_indices.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

using namespace wick::test;  // NOLINT

struct Geometry {
  int64_t kernel[2], dilation[2], padding[2], stride[2];

  int64_t out(int d, int64_t size) const {
    return (size + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) / stride[d] + 1;
  }
  // The input coordinate that kernel element k of window o reads along dim d.
  int64_t at(int d, int64_t o, int64_t k) const { return o * stride[d] - padding[d] + k * dilation[d]; }
};

const std::vector<Geometry> kGeometries = {
    {{3, 3}, {1, 1}, {1, 1}, {1, 1}},
    {{2, 3}, {1, 2}, {0, 2}, {2, 1}},
    {{3, 2}, {2, 1}, {1, 0}, {3, 2}},
    {{1, 1}, {1, 1}, {0, 0}, {1, 1}},
};

// im2col of a (n, c, h, w) iota, element by element.
I expected_columns(int64_t n, int64_t c, int64_t h, int64_t w, const Geometry& g) {
  const int64_t oh = g.out(0, h), ow = g.out(1, w);
  I out;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t ky = 0; ky < g.kernel[0]; ++ky) {
        for (int64_t kx = 0; kx < g.kernel[1]; ++kx) {
          for (int64_t oy = 0; oy < oh; ++oy) {
            for (int64_t ox = 0; ox < ow; ++ox) {
              const int64_t y = g.at(0, oy, ky), x = g.at(1, ox, kx);
              const bool inside = y >= 0 && y < h && x >= 0 && x < w;
              out.push_back(inside ? ((b * c + ch) * h + y) * w + x : 0);
            }
          }
        }
      }
    }
  }
  return out;
}

TEST(SlidingWindows, Im2colPutsEachWindowInAColumn) {
  for (const Geometry& g : kGeometries) {
    for (DType dtype : {DType::Int64, DType::Float32, DType::Int16}) {
      const int64_t n = 3, c = 40, h = 9, w = 11;  // 120 planes: split between threads
      const Tensor cols = im2col(to(iota({n, c, h, w}), dtype), g.kernel, g.dilation, g.padding, g.stride);
      EXPECT_EQ(shape(cols), DimVector({n, c * g.kernel[0] * g.kernel[1], g.out(0, h) * g.out(1, w)}));
      EXPECT_EQ(ints(cols), expected_columns(n, c, h, w, g));
    }
  }
}

TEST(SlidingWindows, Col2imIsTheAdjointOfIm2col) {
  // <im2col(x), y> == <x, col2im(y)> for every x and y: with integer values, exactly.
  for (const Geometry& g : kGeometries) {
    const int64_t n = 2, c = 30, h = 8, w = 7;
    const Tensor x = to(iota({n, c, h, w}), DType::Float64);
    const Tensor cols = im2col(x, g.kernel, g.dilation, g.padding, g.stride);
    const Tensor y = to(iota(shape(cols)), DType::Float64);
    const int64_t size[2] = {h, w};
    const Tensor back = col2im(y, size, g.kernel, g.dilation, g.padding, g.stride);
    ASSERT_EQ(shape(back), shape(x));
    double left = 0, right = 0;
    const std::vector<double> a = reals(cols), b = reals(y), p = reals(x), q = reals(back);
    for (size_t i = 0; i < a.size(); ++i) left += a[i] * b[i];
    for (size_t i = 0; i < p.size(); ++i) right += p[i] * q[i];
    EXPECT_EQ(left, right);
  }
}

TEST(SlidingWindows, MaxPoolPicksTheFirstLargestAndTheLastNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // One 2x4 plane, windows of 2x2: ties in the first, NaNs in the second.
  const Tensor x = to(from(I{1, 5, 2, 0, 5, 3, 8, 7}, {1, 2, 4}), DType::Float64);
  const auto [values, indices] = max_pool2d_with_indices(x, {2, 2}, {}, {0, 0}, {1, 1}, false);
  EXPECT_EQ(reals(values), std::vector<double>({5, 8}));
  EXPECT_EQ(ints(indices), I({1, 6}));
  Tensor with_nan = to(from(I{1, 5, 2, 0, 5, 3, 8, 7}, {1, 2, 4}), DType::Float64);
  with_nan.data<double>()[2] = nan;
  with_nan.data<double>()[7] = nan;
  const auto [v2, i2] = max_pool2d_with_indices(with_nan, {2}, {}, {0}, {1}, false);
  EXPECT_TRUE(std::isnan(reals(v2)[1]));
  EXPECT_EQ(ints(i2), I({1, 7}));
}

TEST(SlidingWindows, MaxPoolMatchesALoopWithPaddingAndCeilMode) {
  const int64_t planes = 50, h = 8, w = 9;
  const Tensor x = to(iota({planes, h, w}), DType::Float32);
  // Values that rise and fall across a plane, so that the maximum moves within windows.
  float* p = x.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) p[i] = float((i * 37) % 23);
  const Geometry g{{3, 2}, {1, 2}, {1, 1}, {2, 2}};
  const auto [values, indices] = max_pool2d_with_indices(x, g.kernel, g.stride, g.padding, g.dilation, true);
  const int64_t oh = shape(values)[1], ow = shape(values)[2];
  EXPECT_EQ(oh, 5);  // one more than without ceil_mode: the last window starts inside the input
  EXPECT_EQ(ow, 5);
  const std::vector<double> got = reals(values);
  const I where = ints(indices);
  for (int64_t b = 0; b < planes; ++b) {
    for (int64_t oy = 0; oy < oh; ++oy) {
      for (int64_t ox = 0; ox < ow; ++ox) {
        double best = -1;
        int64_t at = -1;
        for (int64_t ky = 0; ky < g.kernel[0]; ++ky) {
          for (int64_t kx = 0; kx < g.kernel[1]; ++kx) {
            const int64_t y = g.at(0, oy, ky), xx = g.at(1, ox, kx);
            if (y < 0 || y >= h || xx < 0 || xx >= w) continue;
            const double v = p[(b * h + y) * w + xx];
            if (v > best) best = v, at = y * w + xx;
          }
        }
        const size_t o = size_t((b * oh + oy) * ow + ox);
        EXPECT_EQ(got[o], best);
        EXPECT_EQ(where[o], at);
      }
    }
  }
}

TEST(SlidingWindows, GeometriesThatOverflowAreErrors) {
  const Tensor x = to(iota({1, 1, 2, 2}), DType::Float32);
  const int64_t huge = std::numeric_limits<int64_t>::max();
  expect_throw<Error>([&] { im2col(x, {huge, huge}, {1, 1}, {huge / 2, huge / 2}, {1, 1}); }, "at least one");
  expect_throw<Error>([&] { im2col(x, {2, 2}, {huge, 1}, {0, 0}, {1, 1}); }, "at least one");
  expect_throw<Error>([&] { im2col(x, {1, 1}, {1, 1}, {huge, huge}, {1, 1}); }, "at least one");
  const int64_t size[2] = {huge / 2, huge / 2};
  expect_throw<Error>([&] { col2im(to(iota({1, 4, 1}), DType::Float32), size, {2, 2}, {1, 1}, {0, 0}, {1, 1}); },
                      "overflow");
  const auto [values, indices] = max_pool2d_with_indices(x, {2}, {huge}, {1}, {1}, true);
  EXPECT_EQ(shape(values), DimVector({1, 1, 1, 1}));
  EXPECT_EQ(ints(indices), I({0}));
  expect_throw<Error>([&] { max_pool2d_with_indices(x, {2}, {}, {1}, {3}, false); }, "entirely in the padding");
  expect_throw<TypeError>([&] { col2im(iota({1, 4, 1}), size, {2, 2}, {1, 1}, {0, 0}, {1, 1}); },
                          "floating point");
}

}  // namespace
}  // namespace wick
