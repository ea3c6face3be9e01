// core/src/device.cpp: parsing and printing device strings.
#include "wick/device.h"

#include <cctype>

#include "wick/error.h"

namespace wick {

Device Device::parse(const std::string& s) {
  if (s == "cpu") return Device{};
  if (s.rfind("cuda", 0) == 0) {
    if (s.size() == 4) return Device{DeviceType::CUDA, 0};
    if (s[4] == ':' && s.size() > 5 && s.size() <= 9) {
      int64_t index = 0;
      for (size_t i = 5; i < s.size(); ++i) {
        WICK_CHECK_VALUE(std::isdigit(static_cast<unsigned char>(s[i])), "invalid device string: '", s, "'");
        index = index * 10 + (s[i] - '0');
      }
      WICK_CHECK_VALUE(index < 32768, "device index out of range: '", s, "'");
      return Device{DeviceType::CUDA, int16_t(index)};
    }
  }
  if (s.rfind("cpu:", 0) == 0 && s == "cpu:0") return Device{};
  detail::fail<ValueError>("expected a device string of the form 'cpu', 'cuda' or 'cuda:N', got '", s, "'");
}

std::string Device::str() const {
  return is_cpu() ? "cpu" : "cuda:" + std::to_string(index);
}

}  // namespace wick
