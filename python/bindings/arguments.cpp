// Arguments the bindings share, checked once: where a sweep runs, and trajectory data.
#include <stdexcept>

#include "python/bindings/bindings.hpp"

namespace sg::python {

SweepDevice parse_device(const std::string& name) {
  SweepDevice device = SweepDevice::cpu;
  if (!parse_sweep_device(name, &device))
    throw std::invalid_argument("device: expected \"cpu\", \"cuda\" or \"auto\" (got \"" + name + "\")");
  return device;
}

TrajectoryData read_data(const Problem& problem, const std::string& text, const std::string& source) {
  TrajectoryData data;
  std::string error;
  if (!parse_trajectory_data(text, source, problem.integrator.dt, problem.integrator.steps,
                             scored_body_count(problem.data), &data, &error))
    throw std::invalid_argument(error);
  return data;
}

}  // namespace sg::python
