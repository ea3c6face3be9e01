// tests/cpp/test_tensor_print.cpp: std::ostream's << for tensors, dtypes, devices and scalars.
// The expected strings are PyTorch's repr() of the same tensors, with "torch." read "wick.".
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>

#include "helpers.h"
#include "wick/ops/div.h"
#include "wick/tensor_operators.h"
#include "wick/tensor_print.h"

namespace wick {
namespace {

using test::from;
using test::iota;

template <typename T>
std::string printed(const T& value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

TEST(TensorPrint, IntegersLineUpInRows) {
  EXPECT_EQ(printed(iota({2, 3})), "tensor([[0, 1, 2],\n        [3, 4, 5]])");
  EXPECT_EQ(printed(to(iota({2, 2, 2}), DType::Int8)),
            "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]], dtype=wick.int8)");
  EXPECT_EQ(printed(from({3}, {})), "tensor(3)");
  EXPECT_EQ(printed(from({1, 0}, {2}, DType::Bool)), "tensor([ True, False])");
}

TEST(TensorPrint, FloatsShareOneFormat) {
  EXPECT_EQ(printed(div(from({3, 4, -6}, {3}, DType::Float32), 2)), "tensor([ 1.5000,  2.0000, -3.0000])");
  EXPECT_EQ(printed(from({1, 2}, {2}, DType::Float64)), "tensor([1., 2.], dtype=wick.float64)");
  EXPECT_EQ(printed(div(from({-1}, {}, DType::Float32), 4)), "tensor(-0.2500)");
  EXPECT_EQ(printed(div(from({1, 25}, {2}, DType::Float16), 10)), "tensor([0.1000, 2.5000], dtype=wick.float16)");
  EXPECT_EQ(printed(div(from({1, 100000}, {2}, DType::Float32), 100000)), "tensor([1.0000e-05, 1.0000e+00])");
  // nan and inf keep their own spelling and do not widen the columns.
  EXPECT_EQ(printed(div(from({0, 3, 1, -1}, {4}, DType::Float32), from({0, 2, 0, 0}))),
            "tensor([   nan, 1.5000,    inf,   -inf])");
}

TEST(TensorPrint, LongRowsWrapAtEightyColumns) {
  EXPECT_EQ(printed(to(iota({30}), DType::Float64) * 1000),
            "tensor([    0.,  1000.,  2000.,  3000.,  4000.,  5000.,  6000.,  7000.,  8000.,\n"
            "         9000., 10000., 11000., 12000., 13000., 14000., 15000., 16000., 17000.,\n"
            "        18000., 19000., 20000., 21000., 22000., 23000., 24000., 25000., 26000.,\n"
            "        27000., 28000., 29000.], dtype=wick.float64)");
}

TEST(TensorPrint, MoreThanAThousandElementsAreSummarised) {
  EXPECT_EQ(printed(iota({2000})), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
  EXPECT_EQ(printed(to(iota({40, 50}), DType::Float32) / 4),
            "tensor([[0.0000e+00, 2.5000e-01, 5.0000e-01,  ..., 1.1750e+01, 1.2000e+01,\n"
            "         1.2250e+01],\n"
            "        [1.2500e+01, 1.2750e+01, 1.3000e+01,  ..., 2.4250e+01, 2.4500e+01,\n"
            "         2.4750e+01],\n"
            "        [2.5000e+01, 2.5250e+01, 2.5500e+01,  ..., 3.6750e+01, 3.7000e+01,\n"
            "         3.7250e+01],\n"
            "        ...,\n"
            "        [4.6250e+02, 4.6275e+02, 4.6300e+02,  ..., 4.7425e+02, 4.7450e+02,\n"
            "         4.7475e+02],\n"
            "        [4.7500e+02, 4.7525e+02, 4.7550e+02,  ..., 4.8675e+02, 4.8700e+02,\n"
            "         4.8725e+02],\n"
            "        [4.8750e+02, 4.8775e+02, 4.8800e+02,  ..., 4.9925e+02, 4.9950e+02,\n"
            "         4.9975e+02]])");
}

TEST(TensorPrint, EmptyTensorsNameTheirSize) {
  EXPECT_EQ(printed(empty({0, 2}, DType::Float32)), "tensor([], size=(0, 2))");
  EXPECT_EQ(printed(empty({0}, DType::Int32)), "tensor([], dtype=wick.int32)");
  EXPECT_EQ(printed(empty({0}, DType::Int64)), "tensor([], dtype=wick.int64)");
  EXPECT_EQ(printed(Tensor()), "tensor(undefined)");
}

TEST(TensorPrint, DTypesDevicesAndScalarsPrintAsPythonShowsThem) {
  EXPECT_EQ(printed(DType::BFloat16), "wick.bfloat16");
  EXPECT_EQ(printed(kCPU), "cpu");
  EXPECT_EQ(printed(Device{DeviceType::CUDA, 1}), "cuda:1");
  EXPECT_EQ(printed(Scalar(true)), "True");
  EXPECT_EQ(printed(Scalar(int64_t(-7))), "-7");
  EXPECT_EQ(printed(Scalar(2.0)), "2.0");
  EXPECT_EQ(printed(Scalar(-0.0)), "-0.0");
  EXPECT_EQ(printed(Scalar(0.1)), "0.1");
  EXPECT_EQ(printed(Scalar(1e-05)), "1e-05");
  EXPECT_EQ(printed(Scalar(1.5e-7)), "1.5e-07");
  EXPECT_EQ(printed(Scalar(1e15)), "1000000000000000.0");
  EXPECT_EQ(printed(Scalar(1e16)), "1e+16");
  EXPECT_EQ(printed(Scalar(1.0 / 3)), "0.3333333333333333");
  EXPECT_EQ(printed(Scalar(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(printed(Scalar(-std::numeric_limits<double>::quiet_NaN())), "nan");
}

}  // namespace
}  // namespace wick
