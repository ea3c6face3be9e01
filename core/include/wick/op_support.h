// core/include/wick/op_support.h: what the generated op headers (wick/ops/<name>.h) declare ops with.
//
// Note [Out forms of hand-written ops]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// For a `cpp:` op with `out: true` or `inplace: true`, core writes only
// <name>_out(out, ...), which allocates its result when `out` is undefined and
// otherwise writes into `out` (resizing it, with a warning, if its shape
// differs). The generator derives <name>(...) as <name>_out(Tensor(), ...) and
// <name>_(self, ...) as a checked copy of that result into self.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "wick/array_ref.h"
#include "wick/device.h"
#include "wick/dtype.h"
#include "wick/scalar.h"
#include "wick/structured.h"
#include "wick/tensor.h"
#include "wick/tensor_list.h"
