// core/src/tensor_print.cpp: tensors, dtypes, devices and numbers as Python's repr() shows them.
// See Note [Printing tensors].
#include "wick/tensor_print.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "wick/autograd/variable.h"
#include "wick/ops/cat.h"
#include "wick/ops/contiguous.h"
#include "wick/ops/narrow.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

constexpr int64_t kSkipped = -1;  // where "..." stands among the offsets of a dim's elements

std::mutex g_options_mutex;
PrintOptions g_options;

// v printed by the printf `format` ("%.*f" or "%.*e") with `precision` digits, however many that makes.
std::string printf_double(const char* format, int precision, double v) {
  const int n = std::snprintf(nullptr, 0, format, precision, v);
  std::string out(size_t(std::max(n, 0)) + 1, '\0');
  std::snprintf(out.data(), out.size(), format, precision, v);
  out.pop_back();
  return out;
}

// The elements that are shown, as PyTorch chooses them: when a tensor has more than `threshold`
// elements, each dim longer than 2 * edgeitems keeps its first and last edgeitems.
Tensor shown_part(const Tensor& t, bool summarise, int64_t edge) {
  Tensor part = t;
  for (int64_t d = 0; summarise && d < t.dim(); ++d) {
    const int64_t n = t.size(d);
    if (n > 2 * edge) part = cat({narrow(part, d, 0, edge), narrow(part, d, n - edge, edge)}, d);
  }
  return part;
}

// A contiguous CPU copy of the elements shown, as Python's item() reads them: float64 for
// floating dtypes, int64 for the others. Only those are copied, however large the tensor.
class Values {
 public:
  Values(const Tensor& t, const PrintOptions& options)
      : floating_(is_floating(t.dtype())),
        boolean_(t.dtype() == DType::Bool),
        summarise_(double(t.numel()) > options.threshold),
        edge_(options.edgeitems),
        sizes_(t.sizes().begin(), t.sizes().end()),
        host_(contiguous(to(shown_part(t, summarise_, edge_), kCPU, floating_ ? DType::Float64 : DType::Int64))),
        strides_(contiguous_strides(host_.sizes())) {}

  bool floating() const { return floating_; }
  int64_t dim() const { return int64_t(sizes_.size()); }
  int64_t numel() const { return host_.numel(); }
  double real(int64_t i) const { return host_.data<double>()[i]; }

  // The positions along dim d that are printed, as offsets into the copy; kSkipped stands where
  // "..." goes.
  std::vector<int64_t> shown(int64_t d) const {
    const int64_t n = sizes_[size_t(d)], stride = strides_[size_t(d)];
    const bool skip = summarise_ && n > 2 * edge_;
    std::vector<int64_t> steps;
    for (int64_t i = 0; i < (skip ? 2 * edge_ : n); ++i) {
      if (skip && i == edge_) steps.push_back(kSkipped);
      steps.push_back(i * stride);
    }
    if (skip && edge_ == 0) steps.push_back(kSkipped);
    return steps;
  }

  // The element at flat offset i as Python's str() writes it: "True", "-3", or, for a float,
  // the `finite` text when it is finite.
  std::string str(int64_t i, const std::string& finite) const {
    if (!floating_) {
      const int64_t v = host_.data<int64_t>()[i];
      return boolean_ ? (v ? "True" : "False") : std::to_string(v);
    }
    const double v = real(i);
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return finite;
  }

 private:
  bool floating_;
  bool boolean_;
  bool summarise_;
  int64_t edge_;
  DimVector sizes_;
  Tensor host_;
  DimVector strides_;
};

// One format for every element, so that columns line up.
class Formatter {
 public:
  Formatter(const Values& v, const PrintOptions& options) : values_(v), precision_(int(options.precision)) {
    std::vector<double> finite;
    if (v.floating()) {
      for (int64_t i = 0; i < v.numel(); ++i) {
        if (std::isfinite(v.real(i))) finite.push_back(v.real(i));
      }
    }
    if (!finite.empty()) {
      int_mode_ = std::all_of(finite.begin(), finite.end(), [](double x) { return x == std::floor(x); });
      double lo = INFINITY, hi = 0;
      for (double x : finite) {
        if (x == 0) continue;
        lo = std::min(lo, std::fabs(x));
        hi = std::max(hi, std::fabs(x));
      }
      if (hi > 0) sci_ = hi / lo > 1000.0 || hi > 1e8 || (!int_mode_ && lo < 1e-4);
    }
    // As in PyTorch, nan and inf do not widen the columns of a float tensor, and the columns are as wide as the
    // format chosen by the values makes them: a forced sci_mode changes the format, not the width.
    width_ = 1;
    for (int64_t i = 0; i < v.numel(); ++i) {
      if (!v.floating() || std::isfinite(v.real(i))) width_ = std::max(width_, int64_t(plain(i).size()));
    }
    sci_ = options.sci_mode.value_or(sci_);
  }

  int64_t width() const { return width_; }
  std::string format(int64_t i) const {
    std::string s = plain(i);
    return std::string(size_t(std::max<int64_t>(0, width_ - int64_t(s.size()))), ' ') + s;
  }

 private:
  std::string plain(int64_t i) const {
    if (!values_.floating()) return values_.str(i, "");
    const double v = values_.real(i);
    if (!std::isfinite(v)) return values_.str(i, "");
    return sci_ ? printf_double("%.*e", precision_, v) : int_mode_ ? printf_double("%.*f", 0, v) + "."
                                                                  : printf_double("%.*f", precision_, v);
  }

  const Values& values_;
  int precision_;
  bool sci_ = false;
  bool int_mode_ = true;
  int64_t width_;
};

std::string join(const std::vector<std::string>& parts, const std::string& separator, size_t begin = 0,
                 size_t end = SIZE_MAX) {
  std::string out;
  for (size_t k = begin; k < std::min(end, parts.size()); ++k) out += (k > begin ? separator : "") + parts[k];
  return out;
}

std::string format(const Values& v, const Formatter& fmt, int64_t d, int64_t offset, int64_t indent,
                   int64_t linewidth) {
  const int64_t dims = v.dim() - d;
  if (dims == 0) return fmt.format(offset);
  std::vector<std::string> parts;
  for (int64_t step : v.shown(d)) {
    if (step == kSkipped) {
      parts.push_back(dims == 1 ? " ..." : "...");
    } else {
      parts.push_back(format(v, fmt, d + 1, offset + step, indent + 1, linewidth));
    }
  }
  const std::string margin(size_t(indent + 1), ' ');
  if (dims > 1) return "[" + join(parts, "," + std::string(size_t(dims - 1), '\n') + margin) + "]";
  const size_t per_line = size_t(std::max<int64_t>(1, (linewidth - indent) / (fmt.width() + 2)));
  std::vector<std::string> lines;
  for (size_t k = 0; k < parts.size(); k += per_line) lines.push_back(join(parts, ", ", k, k + per_line));
  return "[" + join(lines, ",\n" + margin) + "]";
}

}  // namespace

PrintOptions print_options() {
  std::lock_guard<std::mutex> lock(g_options_mutex);
  return g_options;
}

void set_print_options(const PrintOptions& options) {
  WICK_CHECK_VALUE(options.precision >= 0 && options.precision <= 1000, "precision must be in [0, 1000], got ",
                   options.precision);
  // Bounded so that 2 * edgeitems, the elements a summarised dim keeps, cannot overflow.
  WICK_CHECK_VALUE(options.edgeitems >= 0 && options.edgeitems <= (int64_t(1) << 40),
                   "edgeitems must be in [0, 2**40], got ", options.edgeitems);
  WICK_CHECK_VALUE(options.linewidth >= 1, "linewidth must be positive, got ", options.linewidth);
  WICK_CHECK_VALUE(!std::isnan(options.threshold), "threshold must be a number, got nan");
  std::lock_guard<std::mutex> lock(g_options_mutex);
  g_options = options;
}

std::string tensor_repr(const Tensor& t) {
  if (!t.defined()) return "tensor(undefined)";
  const std::string prefix = "tensor(";
  const PrintOptions options = print_options();
  std::string out = prefix;
  if (t.numel() == 0) {
    out += "[]";
  } else {
    const Values values(t, options);
    const Formatter fmt(values, options);
    out += format(values, fmt, 0, 0, int64_t(prefix.size()), options.linewidth);
  }
  std::vector<std::string> parts;
  if (t.numel() == 0 && t.dim() != 1) {
    std::vector<std::string> sizes;
    for (int64_t s : t.sizes()) sizes.push_back(std::to_string(s));
    parts.push_back("size=(" + join(sizes, ", ") + ")");
  }
  if (!t.device().is_cpu()) parts.push_back("device='" + t.device().str() + "'");
  const DType d = t.dtype();
  const bool default_dtype = d == default_float() || d == DType::Int64 || d == DType::Bool;
  if (!default_dtype || (t.numel() == 0 && d != default_float())) {
    parts.push_back(std::string("dtype=wick.") + dtype_name(d));
  }
  if (const auto fn = autograd::grad_fn(t)) {
    parts.push_back("grad_fn=<" + fn->name() + ">");
  } else if (autograd::requires_grad(t)) {
    parts.push_back("requires_grad=True");
  }
  // Each suffix goes on the last line while the line stays within linewidth, else on a line of its own,
  // indented under the values (PyTorch's rule, counting as it counts).
  // The length of the last line as PyTorch reckons it: len(s) - s.rfind("\n") + 1, rfind giving -1 for none.
  const size_t newline = out.rfind('\n');
  int64_t line = int64_t(out.size()) - (newline == std::string::npos ? -1 : int64_t(newline)) + 1;
  for (const std::string& part : parts) {
    const int64_t size = int64_t(part.size());
    if (line + size + 2 > options.linewidth) {
      out += ",\n" + std::string(prefix.size(), ' ') + part;
      line = int64_t(prefix.size()) + size;
    } else {
      out += ", " + part;
      line += size + 2;
    }
  }
  return out + ")";
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << tensor_repr(t); }

std::ostream& operator<<(std::ostream& os, DType dtype) { return os << "wick." << dtype_name(dtype); }

std::ostream& operator<<(std::ostream& os, const Device& device) { return os << device.str(); }

std::ostream& operator<<(std::ostream& os, const Scalar& value) {
  if (value.is_bool()) return os << (value.to_bool() ? "True" : "False");
  if (value.is_integral()) return os << value.to_int64();
  const double v = value.to_double();
  if (std::isnan(v)) return os << "nan";
  if (std::isinf(v)) return os << (v > 0 ? "inf" : "-inf");
  // Python's repr(): the fewest digits that read back to v, in positional notation while the
  // exponent is from -4 to 15, with ".0" when that has no point; otherwise as 1.5e-07.
  char buf[64];
  char* end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr;
  const int exponent = std::atoi(std::find(buf, end, 'e') + 1);
  if (exponent < -4 || exponent >= 16) return os.write(buf, end - buf);
  end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed).ptr;
  os.write(buf, end - buf);
  return std::find(buf, end, '.') == end ? os << ".0" : os;
}

}  // namespace wick
