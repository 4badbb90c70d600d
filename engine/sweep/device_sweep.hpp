#pragma once
// Where a sweep runs: on the CPU's cores (run_sweep) or on a CUDA GPU, one sweep point per thread, through
// the same point evaluation (engine/gradient/point_core.hpp and engine/sweep/device_runner.hpp). The CUDA
// side lives in engine/cuda (built when nvcc is found, SOFTGRAD_CUDA); without it these functions say so.
#include <string>

#include "engine/sweep/sweep.hpp"

namespace sg {

enum class SweepDevice { cpu, cuda, automatic };

// "cpu", "cuda", "auto"; false for anything else.
bool parse_sweep_device(const std::string& text, SweepDevice* out);

struct CudaDeviceInfo {
  bool available = false;
  std::string name;    // e.g. "NVIDIA H100 80GB HBM3"
  std::string reason;  // why not available: no CUDA in this build, no driver, no device
};

// Queried once per process (cheap afterwards).
CudaDeviceInfo cuda_device_info();

// The sweep on the GPU: the same result as run_sweep (points, statuses, stats), in chunks of points so that
// control.cancel stops it between chunks and control.on_point / completed report progress. False with
// *error when no device is available or the problem cannot run there (device_path_refusal).
bool run_sweep_cuda(const Problem& problem, const SweepControl& control, SweepResult* out,
                    std::string* error);

// Runs on the chosen device (automatic: CUDA when a device is available, else the CPU). *used says which;
// false with *error when CUDA was asked for and cannot run.
bool run_sweep_on(SweepDevice device, const Problem& problem, const SweepControl& control, SweepResult* out,
                  std::string* used, std::string* error);

}  // namespace sg
