// tests/cpp/test_errors.cpp: WICK_CHECK and its variants, dim wrapping, device parsing, and CUDA without a GPU.
#include <gtest/gtest.h>

#include "helpers.h"

#include <cstdlib>
#include <string>
#include <typeinfo>

#include "wick/core_ops.h"
#include "wick/ops/add.h"
#include "wick/ops/arange.h"
#include "wick/ops/copy_.h"
#include "wick/ops/cuda.h"
#include "wick/ops/empty.h"
#include "wick/ops/item.h"
#include "wick/ops/mm.h"
#include "wick/ops/narrow.h"
#include "wick/ops/ones.h"
#include "wick/ops/rand.h"
#include "wick/ops/randn.h"
#include "wick/ops/select.h"
#include "wick/ops/squeeze.h"
#include "wick/ops/stride.h"
#include "wick/ops/sum.h"
#include "wick/ops/to.h"
#include "wick/ops/transpose.h"
#include "wick/ops/unsqueeze.h"
#include "wick/ops/zeros.h"

namespace wick {
namespace {

using wick::test::expect_throw;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Check, EachVariantThrowsItsTypeWithTheFormattedMessage) {
  const int dim = 3;
  expect_throw<Error>([&] { WICK_CHECK(dim < 2, "dim ", dim, " is not below ", 2.5); }, "dim 3 is not below 2.5");
  expect_throw<IndexError>([&] { WICK_CHECK_INDEX(dim < 2, "index ", dim); }, "index 3");
  expect_throw<ValueError>([&] { WICK_CHECK_VALUE(dim < 2, "bad value ", dim, "!"); }, "bad value 3!");
  expect_throw<TypeError>([&] { WICK_CHECK_TYPE(dim < 2, "type ", dtype_name(DType::Int8)); }, "type int8");
}

TEST(Check, MessageIsExactlyTheConcatenation) {
  try {
    WICK_CHECK(false, "a", 1, "b", std::string("c"), 'd');
    FAIL() << "WICK_CHECK(false) did not throw";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "a1bcd");
  }
}

TEST(Check, PassingCheckDoesNotThrowNorFormat) {
  int formatted = 0;
  auto message = [&] {
    ++formatted;
    return std::string("expensive");
  };
  EXPECT_NO_THROW(WICK_CHECK(1 + 1 == 2, message()));
  EXPECT_NO_THROW(WICK_CHECK_INDEX(true, message()));
  EXPECT_NO_THROW(WICK_CHECK_VALUE(true, message()));
  EXPECT_NO_THROW(WICK_CHECK_TYPE(true, message()));
  EXPECT_EQ(formatted, 0);
  EXPECT_THROW(WICK_CHECK(false, message()), Error);
  EXPECT_EQ(formatted, 1);
}

TEST(Check, AllUserErrorsAreCatchableAsError) {
  EXPECT_THROW(WICK_CHECK_INDEX(false, "x"), Error);
  EXPECT_THROW(WICK_CHECK_VALUE(false, "x"), Error);
  EXPECT_THROW(WICK_CHECK_TYPE(false, "x"), Error);
  EXPECT_THROW(WICK_CHECK_KIND(NotImplementedError, false, "x"), NotImplementedError);
  EXPECT_THROW(WICK_CHECK_KIND(NotImplementedError, false, "x"), Error);
  EXPECT_THROW(WICK_CHECK_INDEX(false, "x"), std::exception);
}

TEST(Check, InternalAssertNamesFileLineAndCondition) {
  try {
    WICK_INTERNAL_ASSERT(1 + 1 == 3, "context ", 42);
    FAIL() << "WICK_INTERNAL_ASSERT(false) did not throw";
  } catch (const Error& e) {
    EXPECT_TRUE(typeid(e) == typeid(Error));
    const std::string msg = e.what();
    EXPECT_TRUE(contains(msg, "test_errors.cpp:")) << msg;
    EXPECT_TRUE(contains(msg, "1 + 1 == 3")) << msg;
    EXPECT_TRUE(contains(msg, "context 42")) << msg;
    EXPECT_TRUE(contains(msg, "bug in wick")) << msg;
  }
  expect_throw<Error>([] { WICK_INTERNAL_ASSERT(false); }, "false");
  EXPECT_NO_THROW(WICK_INTERNAL_ASSERT(true, "never formatted"));
}

TEST(DimWrap, OutOfRangeIsIndexError) {
  Tensor x = zeros({2, 3});
  expect_throw<IndexError>([&] { transpose(x, 0, 5); }, "Dimension out of range");
  expect_throw<IndexError>([&] { transpose(x, 0, 5); }, "[-2, 1]");
  expect_throw<IndexError>([&] { transpose(x, -3, 0); }, "got -3");
  expect_throw<IndexError>([&] { select(x, 2, 0); }, "Dimension out of range");
  expect_throw<IndexError>([&] { narrow(x, -3, 0, 1); }, "Dimension out of range");
  expect_throw<IndexError>([&] { squeeze(x, 2); }, "Dimension out of range");
  expect_throw<IndexError>([&] { unsqueeze(x, 4); }, "Dimension out of range");
  expect_throw<IndexError>([&] { sum(x, {2}); }, "Dimension out of range");
  expect_throw<IndexError>([&] { (void)x.size(2); }, "Dimension out of range");
  expect_throw<IndexError>([&] { stride(x, -3); }, "Dimension out of range");
}

TEST(DimWrap, WrapsNegativeDims) {
  EXPECT_EQ(wrap_dim(-1, 3), 2);
  EXPECT_EQ(wrap_dim(-3, 3), 0);
  EXPECT_EQ(wrap_dim(2, 3), 2);
  // A 0-d tensor accepts dims 0 and -1, as in PyTorch.
  EXPECT_EQ(wrap_dim(0, 0), 0);
  EXPECT_EQ(wrap_dim(-1, 0), 0);
  EXPECT_THROW(wrap_dim(1, 0), IndexError);
  EXPECT_THROW(wrap_dim(3, 3), IndexError);
  EXPECT_THROW(wrap_dim(-4, 3), IndexError);
  EXPECT_EQ(zeros({2, 3}).size(-1), 3);
}

// A 0-d tensor accepts dim 0 in wrap_dim, but it has no size to report: PyTorch
// raises IndexError ("dimension specified as 0 but tensor has no dimensions").
// Run in a child process, since reading sizes()[0] of a 0-d tensor may crash.
TEST(DimWrapDeathTest, SizeAndStrideOfZeroDimTensorAreIndexErrors) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Tensor s = scalar_tensor(Scalar(1.0), DType::Float32);
  auto exits_with_index_error = [](auto&& f) {
    try {
      f();
    } catch (const IndexError&) {
      std::_Exit(0);
    } catch (...) {
      std::_Exit(2);
    }
    std::_Exit(1);  // returned a value for a dim that does not exist
  };
  EXPECT_EXIT(exits_with_index_error([&] { return stride(s, -1); }), testing::ExitedWithCode(0), "");
  EXPECT_EXIT(exits_with_index_error([&] { return s.size(0); }), testing::ExitedWithCode(0), "");
}

TEST(UserErrors, HaveTheDocumentedTypes) {
  Tensor x = zeros({2, 3});
  expect_throw<Error>([&] { item(x); }, "6 elements");
  expect_throw<ValueError>([] { arange(0, 5, 0); }, "step must be nonzero");
  expect_throw<ValueError>([] { arange(5, 0, 1); }, "upper bound and larger bound inconsistent with step sign");
  expect_throw<TypeError>([] { rand({2}, DType::Int32); }, "floating-point");
  expect_throw<ValueError>([] { empty({-1}); }, "negative dimension");
  EXPECT_THROW(as_strided(x, {4}, {2}, 0), Error);  // reaches element 6 of a 6-element storage
  expect_throw<ValueError>([&] { add(x, Tensor()); }, "expected a tensor, got None");
  expect_throw<ValueError>([&] { copy_(x, Tensor()); }, "expected tensors, got None");
  expect_throw<ValueError>([&] { mm(Tensor(), x); }, "expected tensors, got None");
  // A result dtype that cannot be cast into out= is a RuntimeError in PyTorch.
  expect_throw<Error>([&] { add_out(empty({2, 3}, DType::Int32), x, x); }, "can't be cast");
}

// Core's messages do not name the op: a Python binding prefixes its own name (Note [Op names in
// messages] in python_ext/errors.cpp), and the C++ API reads as PyTorch's does.
TEST(UserErrors, NameNoOp) {
  const auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      return e.what();
    }
    return "nothing was thrown";
  };
  EXPECT_EQ(message([] { mm(zeros({2, 3}), zeros({2, 3})); }),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  EXPECT_EQ(message([] { add(zeros({2}), zeros({3})); }),
            "the size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0 (shapes [2] "
            "and [3])");
  EXPECT_EQ(message([] { sum(zeros({2, 3}), IntArrayRef({0, 0})); }),
            "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(message([] { arange(0, 5, 0); }), "step must be nonzero");
  EXPECT_EQ(message([] { item(zeros({2, 3})); }), "a Tensor with 6 elements cannot be converted to Scalar");
}

TEST(Device, Parse) {
  const Device c1 = Device::parse("cuda:1");
  EXPECT_EQ(c1.type, DeviceType::CUDA);
  EXPECT_EQ(c1.index, 1);
  EXPECT_TRUE(c1.is_cuda());
  EXPECT_EQ(Device::parse("cuda"), (Device{DeviceType::CUDA, 0}));
  EXPECT_EQ(Device::parse("cuda:0"), (Device{DeviceType::CUDA, 0}));
  EXPECT_EQ(Device::parse("cuda:12").index, 12);
  EXPECT_EQ(Device::parse("cpu"), kCPU);
  EXPECT_TRUE(Device::parse("cpu").is_cpu());
  EXPECT_EQ(Device::parse("cpu:0"), kCPU);
}

TEST(Device, StrRoundTrips) {
  EXPECT_EQ(kCPU.str(), "cpu");
  EXPECT_EQ((Device{DeviceType::CUDA, 3}).str(), "cuda:3");
  for (const char* s : {"cpu", "cuda:0", "cuda:7", "cuda:255"}) EXPECT_EQ(Device::parse(s).str(), s);
}

TEST(Device, BadStringsAreValueErrors) {
  for (const char* s : {"", "gpu", "CPU", "CUDA:0", "cuda:", "cuda1", "cuda:-1", "cuda:+1", "cuda:x", "cuda:1x",
                        "cuda:0 ", " cpu", "cpu:1", "cpu:", "cudaa", "cuda::1", "cuda:99999999"}) {
    SCOPED_TRACE(std::string("'") + s + "'");
    EXPECT_THROW(Device::parse(s), ValueError);
  }
  expect_throw<ValueError>([] { Device::parse("tpu"); }, "'tpu'");
}

TEST(Cuda, UnavailableWithoutAGpu) {
  if (cuda_runtime::device_count() > 0) GTEST_SKIP() << "this machine has a GPU";
  EXPECT_FALSE(cuda_runtime::is_available());
  EXPECT_EQ(cuda_runtime::device_count(), 0);
  const Device cuda0{DeviceType::CUDA, 0};
  expect_throw<Error>([&] { empty({2}, DType::Float32, cuda0); }, "CUDA is not available");
  expect_throw<Error>([&] { zeros({2, 2}, std::nullopt, cuda0); }, "CUDA is not available");
  expect_throw<Error>([&] { arange(4, std::nullopt, cuda0); }, "CUDA is not available");
  expect_throw<Error>([&] { randn({3}, std::nullopt, cuda0); }, "CUDA is not available");
  expect_throw<Error>([&] { allocate_storage(16, cuda0); }, "CUDA is not available");
  Tensor x = ones({2});
  expect_throw<Error>([&] { cuda(x); }, "CUDA is not available");
  expect_throw<Error>([&] { to(x, cuda0); }, "CUDA is not available");
  expect_throw<Error>([&] { scalar_tensor(Scalar(1), DType::Int64, cuda0); }, "CUDA is not available");
  expect_throw<Error>([&] { cuda_runtime::check_available(); }, "CUDA is not available");
  // Parsing a CUDA device string needs no GPU.
  EXPECT_NO_THROW(Device::parse("cuda:3"));
}

TEST(Cuda, CheckAvailableAgreesWithIsAvailable) {
  if (cuda_runtime::is_available()) {
    EXPECT_NO_THROW(cuda_runtime::check_available());
    EXPECT_GT(cuda_runtime::device_count(), 0);
  } else {
    EXPECT_THROW(cuda_runtime::check_available(), Error);
    EXPECT_EQ(cuda_runtime::device_count(), 0);
  }
}

}  // namespace
}  // namespace wick
