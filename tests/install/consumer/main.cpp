// tests/install/consumer/main.cpp: uses the installed C++ API; check_install.cmake compares what it
// prints with expected.txt.
#include <iostream>

#include <wick/wick.h>

int main() {
  const wick::Tensor a = wick::arange(6, wick::DType::Float32);
  const wick::Tensor b = wick::full({6}, 0.5);
  std::cout << wick::add(a, b) << "\n";
  std::cout << wick::sum(a) << "\n";
  std::cout << wick::view(a + b * 2, {2, 3}) << "\n";
  std::cout << (a > 2) << " " << a.dtype() << " " << wick::Scalar(2.5) << "\n";
}
