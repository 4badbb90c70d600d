#pragma once
// What the binding files share: the module's pieces and the conversions between JSON and Python objects.
#include <stdexcept>
#include <string>

#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

#include "engine/gradient/trajectory_data.hpp"
#include "engine/problem/problem.hpp"
#include "engine/sweep/device_sweep.hpp"

namespace sg::python {

// A run that did not end ok (diverged, exhausted its step budget, non-finite numbers):
// softgrad.SimulationError, a RuntimeError. Bad input (scene, key, value) is std::invalid_argument, Python's
// ValueError.
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// JSON as Python objects (dict, list, str, int, float, bool, None), through Python's json module.
pybind11::object json_to_python(const nlohmann::json& j);

// "cpu", "cuda" or "auto"; std::invalid_argument (ValueError) for anything else.
SweepDevice parse_device(const std::string& name);
// Trajectory data from CSV text (t,body,x,y,z), checked against the problem's output grid;
// std::invalid_argument with "source:line: why" when it does not fit.
TrajectoryData read_data(const Problem& problem, const std::string& text, const std::string& source);

void bind_scene(pybind11::module_& m);
void bind_studies(pybind11::module_& m);
void bind_bench(pybind11::module_& m);

}  // namespace sg::python
