// python_ext/arg_parser.cpp: overload matching and argument conversion. See Note [Argument parsing].
#include "arg_parser.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "device_object.h"
#include "dtype_object.h"
#include "errors.h"
#include "owned_ref.h"
#include "tensor_type.h"
#include "wick/ops/item.h"

namespace wick {
namespace python {
namespace {

bool is_int(PyObject* obj) { return number_kind(obj) == NumberKind::Int; }

bool is_number(PyObject* obj) {
  if (number_kind(obj) != NumberKind::None) return true;
  return is_tensor(obj) && unpack_tensor(obj).dim() == 0;
}

// is_int() may run an element's __len__, which may change the list: its length and items are
// read again for each element, and the element is held while it is looked at.
bool is_int_list(PyObject* obj) {
  if (is_int(obj)) return true;
  if (!PyTuple_Check(obj) && !PyList_Check(obj)) return false;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(obj); ++i) {
    PyObject* item = Py_NewRef(PySequence_Fast_ITEMS(obj)[i]);
    const bool ok = is_int(item);
    Py_DECREF(item);
    if (!ok) return false;
  }
  return true;
}

// The position of the first element of a list or tuple that is not a tensor (nor None, with
// `none_ok`), or -1 when there is none.
Py_ssize_t bad_tensor_element(PyObject* seq, bool none_ok) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  for (Py_ssize_t k = 0; k < n; ++k) {
    if (!is_tensor(items[k]) && !(none_ok && items[k] == Py_None)) return k;
  }
  return -1;
}

bool is_tensor_list(PyObject* obj, bool none_ok) {
  return (PyTuple_Check(obj) || PyList_Check(obj)) && bad_tensor_element(obj, none_ok) < 0;
}

bool type_ok_general(const ParamSpec& p, PyObject* obj) {
  if (obj == Py_None) return p.optional || p.kind == ArgKind::Object;
  switch (p.kind) {
    case ArgKind::Tensor: return is_tensor(obj);
    case ArgKind::Scalar: return is_number(obj);
    case ArgKind::Int: return is_int(obj);
    case ArgKind::IntList: return is_int_list(obj);
    case ArgKind::Double: return number_kind(obj) == NumberKind::Int || number_kind(obj) == NumberKind::Float;
    case ArgKind::Bool: return PyBool_Check(obj);
    case ArgKind::DType: return dtype_argument(obj).has_value();
    case ArgKind::Device: return is_device_like(obj);
    case ArgKind::Object: return true;
    case ArgKind::TensorList: return is_tensor_list(obj, false);
    case ArgKind::OptionalTensorList: return is_tensor_list(obj, true);
    case ArgKind::String: return PyUnicode_Check(obj);
    case ArgKind::Generator: return is_generator(obj);
    case ArgKind::MemoryFormat: return is_memory_format(obj);
  }
  return false;
}

// type_ok_general() with the commonest answers first, inlined into the matchers:
// tensors, and Python ints and floats, by their exact types.
inline bool type_ok(const ParamSpec& p, PyObject* obj) {
  const bool number = PyLong_CheckExact(obj) || PyFloat_CheckExact(obj);
  if (p.kind == ArgKind::Tensor && (number || Py_IS_TYPE(obj, tensor_class))) return !number;
  if (p.kind == ArgKind::Scalar && number) return true;
  return type_ok_general(p, obj);
}

const char* kind_name(const ParamSpec& p) { return kArgKindNames[size_t(p.kind)]; }

const char* type_name(PyObject* obj) { return is_tensor(obj) ? "Tensor" : Py_TYPE(obj)->tp_name; }

// PyTorch's words for a list holding something else: "expected Tensor as element 1 in argument 0, but got int".
std::string element_error(PyObject* item, Py_ssize_t k, int index, bool none_ok) {
  return std::string("expected Tensor") + (none_ok ? " or None" : "") + " as element " + std::to_string(k) +
         " in argument " + std::to_string(index) + ", but got " + type_name(item);
}

int64_t unpack_int(PyObject* obj) {
  if (small_int(obj)) return small_int_value(obj);  // Note [Small ints]
  const long long v = PyLong_AsLongLong(obj);  // calls __index__ for NumPy integers
  if (v == -1 && PyErr_Occurred()) throw python_error();
  return int64_t(v);
}

std::string plural(int n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

int max_positional(const SignatureSpec& sig) {
  int n = 0;
  while (n < sig.nparams && !sig.params[n].kwarg_only) ++n;
  return n;
}

}  // namespace

NumberKind number_kind(PyObject* obj) {
  if (PyBool_Check(obj)) return NumberKind::Bool;
  if (PyLong_Check(obj)) return NumberKind::Int;
  if (PyFloat_Check(obj)) return NumberKind::Float;
  if (is_tensor(obj) || PyUnicode_Check(obj) || PyBytes_Check(obj)) return NumberKind::None;
  // NumPy scalars and 0-d arrays: a sized sequence is data, not a number.
  if (PySequence_Check(obj)) {
    if (PySequence_Size(obj) >= 0) return NumberKind::None;
    PyErr_Clear();
  }
  if (PyIndex_Check(obj)) return NumberKind::Int;
  PyNumberMethods* nb = Py_TYPE(obj)->tp_as_number;
  return nb && nb->nb_float ? NumberKind::Float : NumberKind::None;
}

ArgParser::ArgParser(const char* name, const SignatureSpec* sigs, int nsigs)
    : name_(name), sigs_(sigs), nsigs_(nsigs) {
  WICK_INTERNAL_ASSERT(nsigs <= kMaxOverloads, name, ": at most ", kMaxOverloads, " overloads");
  for (int s = 0; s < nsigs; ++s) {
    WICK_INTERNAL_ASSERT(sigs[s].nparams <= kMaxParams, name, ": too many parameters");
    for (int i = 0; i < sigs[s].nparams; ++i) interned_[s][i] = PyUnicode_InternFromString(sigs[s].params[i].name);
    npos_[s] = max_positional(sigs[s]);
    nneeded_[s] = 0;
    for (int i = 0; i < sigs[s].nparams; ++i) {
      if (sigs[s].params[i].default_kind == DefaultKind::Required) {
        nneeded_[s] = sigs[s].params[i].kwarg_only ? kMaxParams + 1 : i + 1;
      }
    }
  }
}

// Sizes and dims as varargs (x.view(2, 3), x.permute(1, 0)) where the only positional parameter is an int list,
// as in PyTorch; not an optional one, which holds reduction dims (x.var(0, 1) is no var over dims 0 and 1).
bool ArgParser::sizes_as_varargs(int s, PyObject* const* args, Py_ssize_t nargs) const {
  const ParamSpec& first = sigs_[s].params[0];
  if (npos_[s] != 1 || first.kind != ArgKind::IntList || first.optional) return false;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    if (!is_int(args[i])) return false;
  }
  return true;
}

namespace {
// The parameter a NumPy keyword stands for, as PyTorch takes them (sum(x, axis=0, keepdims=True)), or null.
const char* numpy_keyword_of(PyObject* key) {
  if (PyUnicode_CompareWithASCIIString(key, "axis") == 0) return "dim";
  if (PyUnicode_CompareWithASCIIString(key, "keepdims") == 0) return "keepdim";
  return nullptr;
}
}  // namespace

int ArgParser::keyword_index(int s, PyObject* key) const {
  const int n = sigs_[s].nparams;
  for (int i = 0; i < n; ++i) {
    if (interned_[s][i] == key) return i;
  }
  for (int i = 0; i < n; ++i) {
    if (PyUnicode_Compare(interned_[s][i], key) == 0) return i;
  }
  if (const char* name = numpy_keyword_of(key)) {
    for (int i = 0; i < n; ++i) {
      if (std::strcmp(sigs_[s].params[i].name, name) == 0) return i;
    }
  }
  return -1;
}

// Records the positional arguments of overload `s` in `out`; returns how many
// parameters they filled, or -1 if there are too many of them.
int ArgParser::take_positional(int s, PyObject* const* args, Py_ssize_t nargs, ParsedArgs& out) const {
  out.sig_ = &sigs_[s];
  out.varargs_index_ = -1;
  if (nargs <= npos_[s]) {
    for (Py_ssize_t i = 0; i < nargs; ++i) out.args_[i] = args[i];
    return int(nargs);
  }
  // x.view(2, 3): a lone int[] parameter takes its sizes as separate arguments.
  if (!sizes_as_varargs(s, args, nargs)) return -1;
  out.varargs_ = args;
  out.nvarargs_ = nargs;
  out.varargs_index_ = 0;
  out.args_[0] = args[0];
  return 1;
}

bool ArgParser::match(int s, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, ParsedArgs& out) const {
  const ParamSpec* params = sigs_[s].params;
  const int nparams = sigs_[s].nparams;
  // Types are checked first: they rule out most overloads that do not apply.
  if (nargs <= npos_[s]) {
    for (Py_ssize_t i = 0; i < nargs; ++i) {
      if (!type_ok(params[i], args[i])) return false;
    }
  }
  const int filled = take_positional(s, args, nargs, out);
  if (filled < 0) return false;
  for (int i = filled; i < nparams; ++i) out.args_[i] = nullptr;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const int i = keyword_index(s, PyTuple_GET_ITEM(kwnames, k));
    PyObject* value = args[nargs + k];
    if (i < 0 || out.args_[i] || !type_ok(params[i], value)) return false;
    out.args_[i] = value;
  }
  for (int i = filled; i < nparams; ++i) {
    if (!out.args_[i] && params[i].default_kind == DefaultKind::Required) return false;
  }
  return true;
}

inline bool ArgParser::match_positional(int s, PyObject* const* args, Py_ssize_t nargs, ParsedArgs& out) const {
  // Sizes as varargs, or an overload this call cannot fill: the general match.
  if (nargs > npos_[s] || nargs < nneeded_[s]) return match(s, args, nargs, nullptr, out);
  const ParamSpec* params = sigs_[s].params;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    if (!type_ok(params[i], args[i])) return false;
  }
  out.sig_ = &sigs_[s];
  out.varargs_index_ = -1;
  // All of args_, a fixed size: a few vector stores, where the tail alone would be a call to memset.
  for (PyObject*& arg : out.args_) arg = nullptr;
  for (Py_ssize_t i = 0; i < nargs; ++i) out.args_[i] = args[i];
  return true;
}

ArgParser::Fail ArgParser::diagnose(int s, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                                    int* culprit) const {
  const SignatureSpec& sig = sigs_[s];
  ParsedArgs out;
  *culprit = 0;
  for (int i = 0; i < sig.nparams; ++i) out.args_[i] = nullptr;
  if (take_positional(s, args, nargs, out) < 0) {
    return npos_[s] == 1 && sig.params[0].kind == ArgKind::IntList ? Fail::Type : Fail::TooMany;
  }
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const int found = keyword_index(s, PyTuple_GET_ITEM(kwnames, k));
    if (found < 0) {
      *culprit = int(k);
      return Fail::UnknownKeyword;
    }
    if (out.args_[found]) {
      *culprit = found;
      return Fail::Duplicate;
    }
    out.args_[found] = args[nargs + k];
  }
  for (int i = 0; i < sig.nparams; ++i) {
    if (!out.args_[i] && sig.params[i].default_kind == DefaultKind::Required) {
      *culprit = i;
      return Fail::Missing;
    }
  }
  for (int i = 0; i < sig.nparams; ++i) {
    if (out.args_[i] && i != out.varargs_index_ && !type_ok(sig.params[i], out.args_[i])) {
      *culprit = i;
      return Fail::Type;
    }
  }
  return Fail::Changed;
}

int ArgParser::parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, ParsedArgs& out) const {
  if (kwnames) {
    for (int s = 0; s < nsigs_; ++s) {
      if (match(s, args, nargs, kwnames, out)) return s;
    }
  } else {
    for (int s = 0; s < nsigs_; ++s) {
      if (match_positional(s, args, nargs, out)) return s;
    }
  }
  Fail fails[kMaxOverloads];
  int culprits[kMaxOverloads];
  for (int s = 0; s < nsigs_; ++s) fails[s] = diagnose(s, args, nargs, kwnames, &culprits[s]);
  raise(fails, culprits, args, nargs, kwnames);
  return -1;
}

void ArgParser::raise(const Fail* fails, const int* culprits, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) const {
  // What is thrown gets the binding's name from guarded() (See Note [Op names in messages]); what is set
  // here names it in CPython's and PyTorch's wording.
  for (int s = 0; s < nsigs_; ++s) {
    WICK_CHECK_TYPE(fails[s] != Fail::Changed, "an argument changed while it was being read (its __len__ or "
                    "__index__ changed a list it is in)");
  }
  // CPython's own wording when every overload failed for the same reason.
  bool same = true;
  for (int s = 1; s < nsigs_; ++s) same = same && fails[s] == fails[0] && culprits[s] == culprits[0];
  const SignatureSpec& sig = sigs_[0];
  const int culprit = culprits[0];
  if (same) {
    switch (fails[0]) {
      case Fail::TooMany: {
        int most = 0;
        for (int s = 0; s < nsigs_; ++s) most = std::max(most, max_positional(sigs_[s]));
        PyErr_Format(PyExc_TypeError, "%s() takes at most %s (%zd given)", name_,
                     plural(most, "positional argument").c_str(), nargs);
        return;
      }
      case Fail::UnknownKeyword:
        PyErr_Format(PyExc_TypeError, "'%U' is an invalid keyword argument for %s()",
                     PyTuple_GET_ITEM(kwnames, culprit), name_);
        return;
      case Fail::Missing:
        if (nsigs_ > 1) break;
        PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", name_,
                     sig.params[culprit].name, culprit + 1);
        return;
      case Fail::Duplicate:
        if (nsigs_ > 1) break;
        PyErr_Format(PyExc_TypeError, "argument for %s() given by name ('%s') and position (%d)", name_,
                     sig.params[culprit].name, culprit + 1);
        return;
      default:
        break;
    }
  }
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  std::string msg;
  if (nsigs_ == 1 && fails[0] == Fail::Type) {
    const ParamSpec& p = sig.params[culprit];
    PyObject* given = culprit < nargs ? args[culprit] : nullptr;
    for (Py_ssize_t k = 0; k < nkw && !given; ++k) {
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), p.name) == 0) given = args[nargs + k];
    }
    msg = std::string("argument '") + p.name + "' (position " + std::to_string(culprit + 1) + ") must be " +
          kind_name(p) + ", not " + (given ? type_name(given) : "?") + "\naccepted signature:\n * " + name_ +
          sig.text;
    const bool none_ok = p.kind == ArgKind::OptionalTensorList;
    if ((p.kind == ArgKind::TensorList || none_ok) && given && (PyTuple_Check(given) || PyList_Check(given))) {
      // A list of the right kind with a wrong element: name the element, as PyTorch does.
      // Python code run while other overloads were tried may have changed the list since.
      const Py_ssize_t k = bad_tensor_element(given, none_ok);
      if (k >= 0) msg = element_error(PySequence_Fast_ITEMS(given)[k], k, culprit, none_ok);
    }
    throw TypeError(msg);
  } else {
    // What was passed: (str, alpha=float)
    std::string got = "(";
    for (Py_ssize_t i = 0; i < nargs; ++i) got += std::string(i ? ", " : "") + type_name(args[i]);
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
      got += std::string(nargs + k ? ", " : "") + (key ? key : "?") + "=" + type_name(args[nargs + k]);
    }
    got += ")";
    msg = std::string(name_) + "() received an invalid combination of arguments - got " + got +
          ", but expected one of:";
    for (int s = 0; s < nsigs_; ++s) msg += std::string("\n * ") + name_ + sigs_[s].text;
  }
  PyErr_SetString(PyExc_TypeError, msg.c_str());
}

const Tensor& ParsedArgs::tensor(int i) const {
  static const Tensor undefined;
  return absent(i) ? undefined : unpack_tensor(args_[i]);
}

Scalar ParsedArgs::scalar_general(int i) const {
  PyObject* obj = args_[i];
  switch (number_kind(obj)) {
    case NumberKind::Bool: return Scalar(obj == Py_True);
    case NumberKind::Int: return Scalar(unpack_int(obj));
    case NumberKind::Float: {
      const double v = PyFloat_AsDouble(obj);
      if (v == -1.0 && PyErr_Occurred()) throw python_error();
      return Scalar(v);
    }
    case NumberKind::None: break;
  }
  return item(unpack_tensor(obj));  // a 0-d tensor: type_ok() let nothing else through
}

std::optional<Scalar> ParsedArgs::scalar_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return scalar(i);
}

int64_t ParsedArgs::toint(int i) const {
  if (!args_[i]) return int64_t(sig_->params[i].default_value);
  return unpack_int(args_[i]);
}

std::optional<int64_t> ParsedArgs::toint_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return toint(i);
}

DimVector ParsedArgs::intlist(int i) const {
  DimVector ints;
  if (i == varargs_index_) {
    for (Py_ssize_t k = 0; k < nvarargs_; ++k) ints.push_back(unpack_int(varargs_[k]));
  } else if (args_[i] && (PyTuple_Check(args_[i]) || PyList_Check(args_[i]))) {
    // An element's __index__ may change a list while it is read: read a copy.
    const OwnedRef items(PySequence_Tuple(args_[i]));
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(items.get()); ++k) {
      PyObject* item = PyTuple_GET_ITEM(items.get(), k);
      WICK_CHECK_TYPE(is_int(item), "argument '", sig_->params[i].name, "' must be tuple of ints, but found element "
                      "of type ", type_name(item), " at pos ", k);
      ints.push_back(unpack_int(item));
    }
  } else if (args_[i]) {
    ints.push_back(unpack_int(args_[i]));
  }
  return ints;
}

std::optional<DimVector> ParsedArgs::intlist_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return intlist(i);
}

double ParsedArgs::todouble(int i) const {
  if (!args_[i]) return sig_->params[i].default_value;
  const double v = PyFloat_AsDouble(args_[i]);
  if (v == -1.0 && PyErr_Occurred()) throw python_error();
  return v;
}

std::optional<double> ParsedArgs::todouble_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return todouble(i);
}

bool ParsedArgs::tobool(int i) const {
  return args_[i] ? args_[i] == Py_True : sig_->params[i].default_value != 0;
}

DType ParsedArgs::dtype(int i) const { return *dtype_argument(args_[i]); }

std::optional<DType> ParsedArgs::dtype_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return dtype(i);
}

std::vector<std::optional<Tensor>> ParsedArgs::optional_tensorlist(int i) const {
  PyObject* seq = args_[i];
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  std::vector<std::optional<Tensor>> result;
  result.reserve(size_t(n));
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* item = PySequence_Fast_ITEMS(seq)[k];
    if (item == Py_None) {
      result.emplace_back(std::nullopt);
    } else {
      WICK_CHECK_TYPE(is_tensor(item), element_error(item, k, i, true));
      result.emplace_back(unpack_tensor(item));
    }
  }
  return result;
}

std::string_view ParsedArgs::string(int i) const {
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(args_[i], &size);
  if (!utf8) throw python_error();
  return std::string_view(utf8, size_t(size));
}

std::optional<std::string_view> ParsedArgs::string_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return string(i);
}

TensorList::TensorList(PyObject* seq, int index) {
  if (PyList_Check(seq)) {
    owned_ = PyList_AsTuple(seq);
    if (!owned_) throw python_error();
    seq = owned_;
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(seq);
  tensors_.reserve(size_t(n));
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* item = PyTuple_GET_ITEM(seq, k);
    if (!is_tensor(item)) {  // a list changed since parse() checked it
      Py_CLEAR(owned_);
      detail::fail<TypeError>(element_error(item, k, index, false));
    }
    tensors_.push_back(&unpack_tensor(item));
  }
}

bool worth_releasing(std::initializer_list<const Tensor*> tensors, std::initializer_list<const TensorList*> lists) {
  int64_t work = 0;
  bool enough = false, records = autograd::any_requires_grad(tensors);
  for (const TensorList* list : lists) {
    for (const Tensor& t : TensorListRef(*list)) {
      enough = count_work(work, t) || enough;
      records = records || autograd::requires_grad(t);
    }
  }
  for (const Tensor* t : tensors) enough = count_work(work, *t) || enough;
  return enough && !(records && autograd::is_grad_enabled());
}

Device ParsedArgs::device(int i) const { return to_device(args_[i]); }

std::optional<Device> ParsedArgs::device_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return device(i);
}

std::optional<MemoryFormat> ParsedArgs::memory_format_optional(int i) const {
  if (absent(i)) return std::nullopt;
  return memory_format(i);
}

}  // namespace python
}  // namespace wick
