// core/include/wick/wick.h: the whole C++ API in one include: tensors, every op (wick/ops.h),
// the operators (a + b, a < 2), printing (std::cout << t), the errors ops throw and the grad modes
// (wick::autograd::NoGradGuard).
#pragma once

#include "wick/autograd/grad_mode.h"
#include "wick/core_ops.h"
#include "wick/error.h"
#include "wick/indexing.h"
#include "wick/ops.h"
#include "wick/tensor_operators.h"
#include "wick/tensor_print.h"
