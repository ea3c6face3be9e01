// core/include/wick/op_support.h: what the generated op headers (wick/ops/<name>.h) declare ops with.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "wick/array_ref.h"
#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/memory_format.h"
#include "wick/scalar.h"
#include "wick/structured.h"
#include "wick/tensor.h"
#include "wick/tensor_list.h"
