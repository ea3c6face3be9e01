// python_ext/operators.cpp: Python's operators on tensors, as the number and comparison slots of TensorBase.
//
// Note [Operators]
// ~~~~~~~~~~~~~~~~
// x + y calls the generated binding of `add` straight from the nb_add slot,
// and x += y the method `add_`: no Python frame stands between an operator
// and its op, so an operator costs what the named call costs, and takes the
// same arguments (x + 2 is add(x, 2), a wrapped number). When the tensor is
// the right operand of an op that commutes, the operands swap (2 * x is
// mul(x, 2)); otherwise (2 - x) the left one becomes a tensor as wick.tensor()
// makes it: a Python number becomes a 0-d tensor, which promotes as the
// number would (Note [Wrapped numbers]); a float takes the dtype of a floating
// tensor on the right, so that 0.1 - x loses no digit of 0.1 (left_operand).
// An ndarray right of a tensor (x + array, x += array) becomes a tensor over
// its memory, in its own dtype, as PyTorch's operators take it (its named
// functions refuse one); an ndarray on the left is NumPy's to handle.
// The ops are looked up by name once, when the module is made.
#include "operators.h"

#include "arg_parser.h"
#include "dtype_object.h"
#include "errors.h"
#include "interop.h"
#include "tensor_type.h"
#include "wrap.h"

namespace wick {
namespace python {
namespace {

enum Binary : int { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, And, Or, Xor, LShift, RShift, MatMul, kNumBinary };
enum Unary : int { Neg, Abs, Invert, kNumUnary };
constexpr int kNumCompare = 6;  // indexed by Py_LT, Py_LE, Py_EQ, Py_NE, Py_GT, Py_GE

struct Names {
  const char* function;
  const char* method;  // the in-place form; nullptr where Python has none here
};
constexpr Names kBinaryNames[kNumBinary] = {
    {"add", "add_"}, {"sub", "sub_"}, {"mul", "mul_"}, {"div", "div_"}, {"floor_divide", "floor_divide_"},
    {"remainder", "remainder_"}, {"pow", "pow_"}, {"bitwise_and", "bitwise_and_"}, {"bitwise_or", "bitwise_or_"},
    {"bitwise_xor", "bitwise_xor_"}, {"bitwise_left_shift", "bitwise_left_shift_"},
    {"bitwise_right_shift", "bitwise_right_shift_"}, {"matmul", nullptr},
};
constexpr const char* kUnaryNames[kNumUnary] = {"neg", "abs", "bitwise_not"};
constexpr const char* kCompareNames[kNumCompare] = {"lt", "le", "eq", "ne", "gt", "ge"};

PyObject* functions[kNumBinary];
PyObject* methods[kNumBinary];
PyObject* unary_functions[kNumUnary];
PyObject* compare_functions[kNumCompare];
PyObject* tensor_function;  // wick._C.tensor
PyObject* dtype_kwnames;    // ("dtype",)

PyObject* call(PyObject* fn, PyObject* a, PyObject* b) {
  PyObject* args[2] = {a, b};
  return PyObject_Vectorcall(fn, args, 2, nullptr);
}

constexpr bool commutes(Binary op) { return op == Add || op == Mul || op == And || op == Or || op == Xor; }

// The left operand of an op that does not commute, the tensor `b` being on the right (0.1 - x), as a 0-d
// tensor: a Python float in b's dtype where that is floating, so that none of its digits is lost (0.1 in
// float32 would make 0.1 - x inexact for a float64 x) and it promotes as the wrapped number would; anything
// else as wick.tensor() makes it.
PyObject* left_operand(PyObject* a, PyObject* b) {
  if (PyFloat_Check(a) && is_tensor(b) && is_floating(unpack_tensor(b).dtype())) {
    PyObject* args[2] = {a, dtype_object(unpack_tensor(b).dtype())};
    return PyObject_Vectorcall(tensor_function, args, 1, dtype_kwnames);
  }
  return PyObject_CallOneArg(tensor_function, a);
}

// fn(a, b), with b an ndarray as a tensor over its memory (Note [Operators]); the common operands, tensors and
// Python numbers, skip the check.
PyObject* call_right(PyObject* fn, PyObject* a, PyObject* b) {
  if (is_tensor(b) || PyLong_Check(b) || PyFloat_Check(b)) return call(fn, a, b);
  PyObject* operand =
      guarded(nullptr, [b]() -> PyObject* { return is_ndarray(b) ? wrap(tensor_from_numpy(b)) : Py_NewRef(b); });
  if (!operand) return nullptr;
  PyObject* result = call(fn, a, operand);
  Py_DECREF(operand);
  return result;
}

template <Binary op>
PyObject* binary(PyObject* a, PyObject* b) {
  if (is_tensor(a)) return call_right(functions[op], a, b);
  // 2 * x is mul(x, 2): exactly the same result, with 2 a wrapped number, and no tensor made for it.
  if (commutes(op) && number_kind(a) != NumberKind::None) return call(functions[op], b, a);
  PyObject* left = left_operand(a, b);
  if (!left) return nullptr;
  PyObject* result = call(functions[op], left, b);
  Py_DECREF(left);
  return result;
}

template <Binary op>
PyObject* in_place(PyObject* a, PyObject* b) {
  return call_right(methods[op], a, b);
}

bool check_no_modulus(PyObject* mod) {
  if (mod == Py_None) return true;
  PyErr_SetString(PyExc_TypeError, "pow() 3rd argument not allowed for tensors");
  return false;
}

PyObject* power(PyObject* a, PyObject* b, PyObject* mod) {
  return check_no_modulus(mod) ? binary<Pow>(a, b) : nullptr;
}

PyObject* in_place_power(PyObject* a, PyObject* b, PyObject* mod) {
  return check_no_modulus(mod) ? in_place<Pow>(a, b) : nullptr;
}

template <Unary op>
PyObject* unary(PyObject* a) {
  return PyObject_CallOneArg(unary_functions[op], a);
}

PyObject* positive(PyObject* a) { return Py_NewRef(a); }

bool lookup(PyObject* owner, const char* name, PyObject** slot) {
  *slot = PyObject_GetAttrString(owner, name);
  return *slot != nullptr;
}

}  // namespace

PyNumberMethods tensor_as_number = [] {
  PyNumberMethods n{};
  n.nb_add = binary<Add>;
  n.nb_subtract = binary<Sub>;
  n.nb_multiply = binary<Mul>;
  n.nb_true_divide = binary<TrueDiv>;
  n.nb_floor_divide = binary<FloorDiv>;
  n.nb_remainder = binary<Mod>;
  n.nb_power = power;
  n.nb_and = binary<And>;
  n.nb_or = binary<Or>;
  n.nb_xor = binary<Xor>;
  n.nb_lshift = binary<LShift>;
  n.nb_rshift = binary<RShift>;
  n.nb_matrix_multiply = binary<MatMul>;
  n.nb_inplace_add = in_place<Add>;
  n.nb_inplace_subtract = in_place<Sub>;
  n.nb_inplace_multiply = in_place<Mul>;
  n.nb_inplace_true_divide = in_place<TrueDiv>;
  n.nb_inplace_floor_divide = in_place<FloorDiv>;
  n.nb_inplace_remainder = in_place<Mod>;
  n.nb_inplace_power = in_place_power;
  n.nb_inplace_and = in_place<And>;
  n.nb_inplace_or = in_place<Or>;
  n.nb_inplace_xor = in_place<Xor>;
  n.nb_inplace_lshift = in_place<LShift>;
  n.nb_inplace_rshift = in_place<RShift>;
  n.nb_negative = unary<Neg>;
  n.nb_absolute = unary<Abs>;
  n.nb_invert = unary<Invert>;
  n.nb_positive = positive;
  return n;
}();

PyObject* tensor_richcompare(PyObject* a, PyObject* b, int op) {
  // x == None is False, as for any object that is not None; CPython swaps the
  // operation when the tensor is on the right (2 < x is x > 2).
  if (b == Py_None) Py_RETURN_NOTIMPLEMENTED;
  return call(compare_functions[op], a, b);
}

bool init_operators(PyObject* module) {
  PyObject* type = reinterpret_cast<PyObject*>(&TensorBaseType);
  for (int i = 0; i < kNumBinary; ++i) {
    if (!lookup(module, kBinaryNames[i].function, &functions[i])) return false;
    if (kBinaryNames[i].method && !lookup(type, kBinaryNames[i].method, &methods[i])) return false;
  }
  for (int i = 0; i < kNumUnary; ++i) {
    if (!lookup(module, kUnaryNames[i], &unary_functions[i])) return false;
  }
  for (int i = 0; i < kNumCompare; ++i) {
    if (!lookup(module, kCompareNames[i], &compare_functions[i])) return false;
  }
  dtype_kwnames = Py_BuildValue("(s)", "dtype");
  return dtype_kwnames && lookup(module, "tensor", &tensor_function);
}

}  // namespace python
}  // namespace wick
