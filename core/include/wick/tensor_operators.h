// core/include/wick/tensor_operators.h: C++'s operators on tensors, as libtorch's, each one call of its op.
#pragma once

#include "wick/ops/add.h"
#include "wick/ops/bitwise_and.h"
#include "wick/ops/bitwise_not.h"
#include "wick/ops/bitwise_or.h"
#include "wick/ops/bitwise_xor.h"
#include "wick/ops/div.h"
#include "wick/ops/eq.h"
#include "wick/ops/ge.h"
#include "wick/ops/gt.h"
#include "wick/ops/le.h"
#include "wick/ops/lt.h"
#include "wick/ops/mul.h"
#include "wick/ops/ne.h"
#include "wick/ops/neg.h"
#include "wick/ops/remainder.h"
#include "wick/ops/sub.h"
#include "wick/pointwise.h"

namespace wick {

// Note [C++ operators]
// ~~~~~~~~~~~~~~~~~~~~
// a + b is add(a, b), a / b is div(a, b) (true division), a % b is remainder(a, b) (the
// sign of b, as Python's %), & | ^ ~ are the bitwise ops (logical on bool), and the
// comparisons return bool tensors: the same results as the same expressions in Python.
// A C++ number on either side is a wrapped number (Note [Wrapped numbers]), so an int32
// tensor plus 1 stays int32 and 2.5 * it is float32. With the number on the left, an op
// that commutes swaps its operands and a comparison turns around (2 < a is a > 2); the
// others (2 - a, 2 / a, 2 % a) make the number a 0-d tensor of the dtype the op computes
// in, which promotes as the number would. a += b is add_(a, b), and so on: it writes a,
// whose dtype cannot change (an int tensor /= 2 is an error, as in PyTorch).

#define WICK_BINARY_OPERATOR(OP, FN, LEFT_NUMBER)                                          \
  inline Tensor operator OP(const Tensor& a, const Tensor& b) { return FN(a, b); }       \
  inline Tensor operator OP(const Tensor& a, const Scalar& b) { return FN(a, b); }       \
  inline Tensor operator OP(const Scalar& a, const Tensor& b) { return LEFT_NUMBER; }
#define WICK_LEFT_NUMBER(FN) FN(detail::wrapped_left_operand(a, b), b)

WICK_BINARY_OPERATOR(+, add, add(b, a))
WICK_BINARY_OPERATOR(*, mul, mul(b, a))
WICK_BINARY_OPERATOR(&, bitwise_and, bitwise_and(b, a))
WICK_BINARY_OPERATOR(|, bitwise_or, bitwise_or(b, a))
WICK_BINARY_OPERATOR(^, bitwise_xor, bitwise_xor(b, a))
WICK_BINARY_OPERATOR(-, sub, WICK_LEFT_NUMBER(sub))
WICK_BINARY_OPERATOR(/, div, WICK_LEFT_NUMBER(div))
WICK_BINARY_OPERATOR(%, remainder, WICK_LEFT_NUMBER(remainder))
WICK_BINARY_OPERATOR(<, lt, gt(b, a))
WICK_BINARY_OPERATOR(<=, le, ge(b, a))
WICK_BINARY_OPERATOR(>, gt, lt(b, a))
WICK_BINARY_OPERATOR(>=, ge, le(b, a))
WICK_BINARY_OPERATOR(==, eq, eq(b, a))
WICK_BINARY_OPERATOR(!=, ne, ne(b, a))

#define WICK_COMPOUND_OPERATOR(OP, FN)                                                                 \
  inline const Tensor& operator OP(const Tensor& self, const Tensor& other) { return FN(self, other); } \
  inline const Tensor& operator OP(const Tensor& self, const Scalar& other) { return FN(self, other); }

WICK_COMPOUND_OPERATOR(+=, add_)
WICK_COMPOUND_OPERATOR(-=, sub_)
WICK_COMPOUND_OPERATOR(*=, mul_)
WICK_COMPOUND_OPERATOR(/=, div_)
WICK_COMPOUND_OPERATOR(%=, remainder_)
WICK_COMPOUND_OPERATOR(&=, bitwise_and_)
WICK_COMPOUND_OPERATOR(|=, bitwise_or_)
WICK_COMPOUND_OPERATOR(^=, bitwise_xor_)

#undef WICK_BINARY_OPERATOR
#undef WICK_LEFT_NUMBER
#undef WICK_COMPOUND_OPERATOR

inline Tensor operator-(const Tensor& a) { return neg(a); }
inline Tensor operator~(const Tensor& a) { return bitwise_not(a); }

}  // namespace wick
