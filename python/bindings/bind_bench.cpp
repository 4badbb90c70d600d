// Timing helpers for bench/python_bench.py: the same work timed inside C++, so that the Python layer's own
// cost (argument conversion, result arrays, the worker thread of a sweep) is the difference.
#include <algorithm>
#include <chrono>
#include <memory>

#include <pybind11/pybind11.h>

#include "engine/simulate/trajectory.hpp"
#include "engine/sweep/sweep.hpp"
#include "python/bindings/bindings.hpp"
#include "python/bindings/scene_handle.hpp"

namespace sg::python {
namespace py = pybind11;
namespace {

using Clock = std::chrono::steady_clock;

// Mean seconds of simulate_trajectory over `calls` calls (after one to warm up).
double time_simulate(const SceneHandle& scene, double value, int calls) {
  const std::shared_ptr<const Problem> problem = scene.problem();
  py::gil_scoped_release unlocked;
  simulate_trajectory(*problem, value);
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < calls; ++i) simulate_trajectory(*problem, value);
  return std::chrono::duration<double>(Clock::now() - start).count() / std::max(calls, 1);
}

// Best wall time of run_sweep (on all cores, after a warm-up sweep) over `repeats`.
double time_sweep(const SceneHandle& scene, int repeats) {
  const std::shared_ptr<const Problem> problem = scene.problem();
  py::gil_scoped_release unlocked;
  run_sweep(*problem);
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const Clock::time_point start = Clock::now();
    run_sweep(*problem);
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

}  // namespace

void bind_bench(py::module_& m) {
  m.def("_time_simulate", &time_simulate, py::arg("scene"), py::arg("value"), py::arg("calls"));
  m.def("_time_sweep", &time_sweep, py::arg("scene"), py::arg("repeats"));
}

}  // namespace sg::python
