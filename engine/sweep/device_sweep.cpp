#include "engine/sweep/device_sweep.hpp"

#include "engine/gradient/reference.hpp"
#include "engine/sweep/device_problem.hpp"

namespace sg {

bool parse_sweep_device(const std::string& text, SweepDevice* out) {
  if (text == "cpu")
    *out = SweepDevice::cpu;
  else if (text == "cuda")
    *out = SweepDevice::cuda;
  else if (text == "auto")
    *out = SweepDevice::automatic;
  else
    return false;
  return true;
}

bool gpu_can_run(const Problem& problem) {
  return cuda_device_info().available && device_path_refusal(problem).empty();
}

bool run_sweep_on(SweepDevice device, const Problem& problem, const SweepControl& control, SweepResult* out,
                  std::string* used, std::string* error) {
  const bool gpu_chosen = device == SweepDevice::automatic && gpu_can_run(problem) &&
                          gpu_pays_off(problem.sweep.points, sweep_cpu_threads(control));
  if (device == SweepDevice::cuda || gpu_chosen) {
    *used = "cuda";
    if (!run_sweep_cuda(problem, control, out, error)) return false;
    out->straight_through_cfd = straight_through_cfd(problem);
    summarize_sweep(*out);  // again, with the CFD check
    return true;
  }
  *used = "cpu";
  *out = run_sweep(problem, control);
  return true;
}

bool run_sweep2d_on(SweepDevice device, const Problem& problem, const GridAxis& x, const GridAxis& y,
                    const Grid2dControl& control, Grid2dResult* out, std::string* used, std::string* error) {
  SweepControl cores;
  cores.threads = control.threads;
  const int threads = sweep_cpu_threads(cores);
  const bool gpu_chosen = device == SweepDevice::automatic && cuda_device_info().available &&
                          device_grid_refusal(problem).empty() && gpu_pays_off(x.points * y.points, threads);
  if (device == SweepDevice::cuda || gpu_chosen) {
    *used = "cuda";
    return run_sweep2d_cuda(problem, x, y, control, out, error);
  }
  *used = "cpu";
  *out = run_sweep2d(problem, x, y, control);
  return true;
}

}  // namespace sg
