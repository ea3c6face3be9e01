// core/src/tensor_print.cpp: tensors, dtypes, devices and numbers as Python's repr() shows them.
// See Note [Printing tensors].
#include "wick/tensor_print.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "wick/ops/contiguous.h"
#include "wick/ops/to.h"

namespace wick {
namespace {

constexpr int64_t kThreshold = 1000;  // more elements than this are summarised with "..."
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;
constexpr int64_t kSkipped = -1;  // where "..." stands among the indices of a dim

std::string printf_double(const char* format, double v) {
  char buf[512];  // %.4f of the largest double is 314 characters
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A contiguous CPU copy of a tensor's values, as Python's item() reads them: float64 for
// floating dtypes, int64 for the others.
class Values {
 public:
  explicit Values(const Tensor& t)
      : floating_(is_floating(t.dtype())),
        boolean_(t.dtype() == DType::Bool),
        host_(contiguous(to(t, kCPU, floating_ ? DType::Float64 : DType::Int64))),
        strides_(contiguous_strides(host_.sizes())) {}

  bool floating() const { return floating_; }
  IntArrayRef sizes() const { return host_.sizes(); }
  int64_t stride(int64_t d) const { return strides_[size_t(d)]; }
  double real(int64_t i) const { return host_.data<double>()[i]; }

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
  Tensor host_;
  DimVector strides_;
};

// The indices of dim d that are printed: all, or the edges around kSkipped.
std::vector<int64_t> shown(int64_t n, bool summarise) {
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < n; ++i) {
    if (summarise && n > 2 * kEdgeItems && i == kEdgeItems) {
      indices.push_back(kSkipped);
      i = n - kEdgeItems;
    }
    indices.push_back(i);
  }
  return indices;
}

// The offsets of the elements that choose the format: those of the edges of each dim
// that has more than kThreshold elements under it.
void collect(const Values& v, int64_t d, int64_t offset, std::vector<int64_t>& out) {
  const IntArrayRef sizes = v.sizes();
  if (d == int64_t(sizes.size())) {
    out.push_back(offset);
    return;
  }
  const int64_t below = checked_numel(IntArrayRef(sizes.data() + d, sizes.size() - size_t(d)));
  for (int64_t i : shown(sizes[size_t(d)], below > kThreshold)) {
    if (i != kSkipped) collect(v, d + 1, offset + i * v.stride(d), out);
  }
}

// One format for every element, so that columns line up.
class Formatter {
 public:
  Formatter(const Values& v, const std::vector<int64_t>& offsets) : values_(v) {
    std::vector<double> finite;
    if (v.floating()) {
      for (int64_t i : offsets) {
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
      if (hi > 0) sci_ = int_mode_ ? hi > 1e8 : hi / lo > 1000.0 || hi > 1e8 || lo < 1e-4;
    }
    // As in PyTorch, nan and inf do not widen the columns of a float tensor.
    width_ = 1;
    for (int64_t i : offsets) {
      if (!v.floating() || std::isfinite(v.real(i))) width_ = std::max(width_, int64_t(plain(i).size()));
    }
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
    return sci_ ? printf_double("%.4e", v) : int_mode_ ? printf_double("%.0f", v) + "." : printf_double("%.4f", v);
  }

  const Values& values_;
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
                   bool summarise) {
  const IntArrayRef sizes = v.sizes();
  const int64_t dims = int64_t(sizes.size()) - d;
  if (dims == 0) return fmt.format(offset);
  const std::vector<int64_t> indices = shown(sizes[size_t(d)], summarise);
  std::vector<std::string> parts;
  for (int64_t i : indices) {
    if (i == kSkipped) {
      parts.push_back(dims == 1 ? " ..." : "...");
    } else {
      parts.push_back(format(v, fmt, d + 1, offset + i * v.stride(d), indent + 1, summarise));
    }
  }
  const std::string margin(size_t(indent + 1), ' ');
  if (dims > 1) return "[" + join(parts, "," + std::string(size_t(dims - 1), '\n') + margin) + "]";
  const size_t per_line = size_t(std::max<int64_t>(1, (kLineWidth - indent) / (fmt.width() + 2)));
  std::vector<std::string> lines;
  for (size_t k = 0; k < parts.size(); k += per_line) lines.push_back(join(parts, ", ", k, k + per_line));
  return "[" + join(lines, ",\n" + margin) + "]";
}

}  // namespace

std::string tensor_repr(const Tensor& t) {
  if (!t.defined()) return "tensor(undefined)";
  const std::string prefix = "tensor(";
  std::vector<std::string> parts;
  if (t.numel() == 0) {
    parts.push_back("[]");
  } else {
    const Values values(t);
    std::vector<int64_t> offsets;
    collect(values, 0, 0, offsets);
    const Formatter fmt(values, offsets);
    parts.push_back(format(values, fmt, 0, 0, int64_t(prefix.size()), t.numel() > kThreshold));
  }
  if (t.numel() == 0 && t.dim() != 1) {
    std::vector<std::string> sizes;
    for (int64_t s : t.sizes()) sizes.push_back(std::to_string(s));
    parts.push_back("size=(" + join(sizes, ", ") + ")");
  }
  if (!t.device().is_cpu()) parts.push_back("device='" + t.device().str() + "'");
  const DType d = t.dtype();
  const bool default_dtype = d == DType::Float32 || d == DType::Int64 || d == DType::Bool;
  if (!default_dtype || (t.numel() == 0 && d != DType::Float32)) {
    parts.push_back(std::string("dtype=wick.") + dtype_name(d));
  }
  return prefix + join(parts, ", ") + ")";
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
