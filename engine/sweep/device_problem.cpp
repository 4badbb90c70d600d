#include "engine/sweep/device_problem.hpp"

#include <stdexcept>

#include "engine/gradient/point_eval.hpp"

namespace sg {

namespace {

// The problem in both scalar types with the swept parameter at `path`; `option` names it in the error.
std::unique_ptr<DeviceProblemHost> prepare(const Problem& problem, const std::string& path,
                                           const std::string& option) {
  auto host = std::make_unique<DeviceProblemHost>();
  host->data = problem.data;
  host->data_dual = convert_problem<Dual<1>>(problem.data);
  const std::ptrdiff_t offset = parameter_offset(host->data, path);
  const std::ptrdiff_t offset_dual = parameter_offset(host->data_dual, path);
  if (offset < 0 || offset_dual < 0)
    throw std::invalid_argument(option + ": \"" + path + "\" is not a differentiable parameter");
  host->view.data = &host->data;
  host->view.data_dual = &host->data_dual;
  host->view.offset = offset;
  host->view.offset_dual = offset_dual;
  host->view.settings = point_settings(problem);
  return host;
}

}  // namespace

std::unique_ptr<DeviceProblemHost> prepare_device_problem(const Problem& problem) {
  return prepare(problem, problem.sweep.parameter, "sweep.parameter");
}

std::unique_ptr<DeviceProblemHost> prepare_device_grid(const Problem& problem, const std::string& x_path,
                                                       const std::string& y_path) {
  auto host = prepare(problem, x_path, "--x");
  host->view.offset_y = parameter_offset(host->data, y_path);
  host->view.offset_y_dual = parameter_offset(host->data_dual, y_path);
  if (host->view.offset_y < 0 || host->view.offset_y_dual < 0)
    throw std::invalid_argument("--y: \"" + y_path + "\" is not a differentiable parameter");
  return host;
}

std::string device_grid_refusal(const Problem& problem) {
  if (problem.data.type == ModelType::tree)
    return "joint trees (model.type tree) run on the CPU only (use --device cpu)";
  if (problem.data.type == ModelType::rigid && problem.data.rigid.as_tree)
    return "free bodies run as a joint tree (model.run_as tree, the default) run on the CPU only (use "
           "--device cpu, or --set model.run_as=free_bodies for the free bodies' own GPU kernel)";
  if (problem.integrator.method == Method::dopri8)
    return "integrator.type dopri8 runs on the CPU only (use --device cpu)";
  return "";
}

std::string device_path_refusal(const Problem& problem) {
  if (const std::string why = device_grid_refusal(problem); !why.empty()) return why;
  if (problem.gradient.reverse) return "gradient.mode reverse runs on the CPU only (use --device cpu)";
  if (problem.gradient.backsolve) return "gradient.mode backsolve runs on the CPU only (use --device cpu)";
  if (problem.gradient.smoothing.samples > 0)
    return "randomized smoothing (gradient.smoothing.samples > 0) runs on the CPU only (use --device cpu)";
  return "";
}

}  // namespace sg
