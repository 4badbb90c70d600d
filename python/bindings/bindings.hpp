#pragma once
// What the binding files share: the module's pieces and the conversions between JSON and Python objects.
#include <stdexcept>
#include <string>

#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

namespace sg::python {

// A run that did not end ok (diverged, exhausted its step budget, non-finite numbers):
// softgrad.SimulationError, a RuntimeError. Bad input (scene, key, value) is std::invalid_argument, Python's
// ValueError.
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// JSON as Python objects (dict, list, str, int, float, bool, None), through Python's json module.
pybind11::object json_to_python(const nlohmann::json& j);

void bind_scene(pybind11::module_& m);
void bind_studies(pybind11::module_& m);
void bind_bench(pybind11::module_& m);

}  // namespace sg::python
