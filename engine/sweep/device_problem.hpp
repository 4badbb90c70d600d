#pragma once
// A problem prepared for the device path (engine/sweep/device_runner.hpp): its data in both scalar types, the
// swept parameter's offsets and the point settings, owned on the host. The CUDA backend copies it to the
// GPU; the host test of the device path uses it as it is.
#include <memory>

#include "engine/problem/problem.hpp"
#include "engine/sweep/device_runner.hpp"

namespace sg {

struct DeviceProblemHost {
  ProblemData<double> data;
  ProblemData<Dual<1>> data_dual;
  DeviceProblem view;  // points into this object: it is neither copied nor moved
};

// Throws std::invalid_argument when the sweep parameter is not a differentiable number (as PointEvaluator).
std::unique_ptr<DeviceProblemHost> prepare_device_problem(const Problem& problem);

// The same for a 2-D sweep of the parameters at x_path and y_path (both differentiable numbers: check_grid).
std::unique_ptr<DeviceProblemHost> prepare_device_grid(const Problem& problem, const std::string& x_path,
                                                       const std::string& y_path);

// Why a problem cannot run on the device path, or "" when it can: randomized smoothing and reverse mode run
// on the CPU only.
std::string device_path_refusal(const Problem& problem);

// Why a 2-D sweep of the problem cannot run on the device path, or "": it always takes forward-mode AD
// and no smoothing, so only the model type and the integrator matter.
std::string device_grid_refusal(const Problem& problem);

}  // namespace sg
