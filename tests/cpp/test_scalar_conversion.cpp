// tests/cpp/test_scalar_conversion.cpp: PyTorch's overflow rule for numbers stored into a dtype
// (Note [Checked conversion of Python numbers]); tests/python/dtypes/test_scalar_conversion.py compares
// every entry point with PyTorch itself.
#include <cmath>
#include <limits>
#include <string>

#include "helpers.h"
#include "wick/ops/add.h"
#include "wick/ops/fill_.h"
#include "wick/ops/full.h"
#include "wick/ops/zeros.h"
#include "wick/scalar.h"

namespace wick {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ScalarConversion, IntegersFitTheirRangeAndNegativesWrapIntoUInt8) {
  EXPECT_FALSE(overflows(int64_t(127), DType::Int8));
  EXPECT_FALSE(overflows(int64_t(-128), DType::Int8));
  EXPECT_TRUE(overflows(int64_t(128), DType::Int8));
  EXPECT_TRUE(overflows(int64_t(-129), DType::Int8));
  EXPECT_FALSE(overflows(int64_t(255), DType::UInt8));
  EXPECT_FALSE(overflows(int64_t(-255), DType::UInt8));  // a magnitude up to 255 wraps
  EXPECT_TRUE(overflows(int64_t(256), DType::UInt8));
  EXPECT_TRUE(overflows(int64_t(-256), DType::UInt8));
  EXPECT_TRUE(overflows(int64_t(1) << 31, DType::Int32));
  EXPECT_FALSE(overflows(std::numeric_limits<int64_t>::min(), DType::Int64));
  EXPECT_TRUE(overflows(int64_t(65505), DType::Float16));
  EXPECT_FALSE(overflows(std::numeric_limits<int64_t>::max(), DType::BFloat16));
}

TEST(ScalarConversion, FloatsIntoIntegersAreTruncatedInRangeAndNaNNeverFits) {
  EXPECT_FALSE(overflows(-0.5, DType::Int8));  // truncates to 0
  EXPECT_TRUE(overflows(-0.5, DType::UInt8));  // a negative float does not wrap
  EXPECT_TRUE(overflows(255.5, DType::UInt8));
  EXPECT_TRUE(overflows(2147483647.5, DType::Int32));
  EXPECT_TRUE(overflows(kNaN, DType::Int64));
  EXPECT_TRUE(overflows(kInf, DType::Int32));
  EXPECT_TRUE(overflows(std::ldexp(1.0, 63), DType::Int64));  // int64's max rounds up to 2**63 in double
  EXPECT_FALSE(overflows(-std::ldexp(1.0, 63), DType::Int64));
}

TEST(ScalarConversion, FloatingDtypesTakeInfAndNaNButNotFiniteValuesBeyondTheirMax) {
  for (DType d : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    EXPECT_FALSE(overflows(kInf, d));
    EXPECT_FALSE(overflows(-kInf, d));
    EXPECT_FALSE(overflows(kNaN, d));
  }
  EXPECT_FALSE(overflows(65504.0, DType::Float16));
  EXPECT_TRUE(overflows(65504.5, DType::Float16));
  EXPECT_TRUE(overflows(1e39, DType::BFloat16));
  EXPECT_TRUE(overflows(-1e300, DType::Float32));
  EXPECT_FALSE(overflows(1e300, DType::Float64));
}

TEST(ScalarConversion, NothingOverflowsBoolAndBoolOverflowsNothing) {
  EXPECT_FALSE(overflows(kNaN, DType::Bool));
  EXPECT_FALSE(overflows(int64_t(-300), DType::Bool));
  EXPECT_FALSE(overflows(true, DType::Int8));
}

TEST(ScalarConversion, TheErrorNamesTheCppTypeAsPyTorchDoes) {
  const auto message = [](const Scalar& v, DType d, const char* name = nullptr) {
    try {
      check_convertible(v, d, name);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(1e30, DType::Int8), "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(message(kInf, DType::Int32), "value cannot be converted to type int without overflow");
  EXPECT_EQ(message(1e10, DType::Float16), "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(message(int64_t(300), DType::UInt8, "uint8"), "value cannot be converted to type uint8 without overflow");
  EXPECT_EQ(message(int64_t(-1), DType::UInt8), "");
}

TEST(ScalarConversion, CheckedConvertGivesTheValueTheDtypeHolds) {
  EXPECT_EQ(checked_convert(2.7, DType::Int32).to_int64(), 2);
  EXPECT_TRUE(checked_convert(2.7, DType::Int32).is_integral());
  EXPECT_EQ(checked_convert(int64_t(-1), DType::UInt8).to_int64(), 255);
  EXPECT_EQ(checked_convert(0.1, DType::Float32).to_double(), double(0.1f));
  EXPECT_TRUE(checked_convert(int64_t(5), DType::Bool).is_bool());
  EXPECT_THROW(checked_convert(1e300, DType::Float32), Error);
}

TEST(ScalarConversion, FillAndFullCheckWhileWrappedNumbersWrap) {
  EXPECT_THROW(full({2}, kInf, DType::Int32), Error);
  EXPECT_THROW(fill_(zeros({2}, DType::Int8), 1e30), Error);
  EXPECT_EQ(test::ints(fill_(zeros({2}, DType::UInt8), int64_t(-1))), (test::I{255, 255}));
  EXPECT_EQ(test::ints(add(zeros({2}, DType::Int8), int64_t(1000))), (test::I{-24, -24}));  // as PyTorch
}

}  // namespace
}  // namespace wick
