// core/include/wick/device.h: where a tensor's memory lives.
#pragma once

#include <cstdint>
#include <string>

namespace wick {

enum class DeviceType : uint8_t { CPU, CUDA };

struct Device {
  DeviceType type = DeviceType::CPU;
  int16_t index = 0;  // always 0 for the CPU

  bool is_cpu() const { return type == DeviceType::CPU; }
  bool is_cuda() const { return type == DeviceType::CUDA; }
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }

  // "cpu", "cuda", "cuda:1"; throws ValueError on anything else.
  static Device parse(const std::string& s);
  // "cpu" or "cuda:0".
  std::string str() const;
};

constexpr Device kCPU{};

}  // namespace wick
