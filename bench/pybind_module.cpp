// bench/pybind_module.cpp: the same methods as limit_module.c, bound with pybind11, for comparison.
#include <pybind11/pybind11.h>

namespace py = pybind11;

struct Value {
  double value = 0;
};

PYBIND11_MODULE(_bench_pybind, m) {
  py::class_<Value>(m, "Value")
      .def(py::init<>())
      .def("dim", [](const Value&) { return 1; })
      .def("add_", [](Value& self, double v) -> Value& { self.value += v; return self; },
           py::return_value_policy::reference)
      .def("view", [](const Value& self, int) { return Value{self.value}; })
      .def("__getitem__", [](const Value& self, int) { return Value{self.value}; });
  m.def("add", [](const Value& a, const Value& b) { return Value{a.value + b.value}; });
}
