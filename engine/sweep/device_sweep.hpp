#pragma once
// Where a sweep runs: on the CPU's cores (run_sweep) or on a CUDA GPU, a thread per run of a point, through
// the same point evaluation (engine/gradient/point_core.hpp and engine/sweep/device_runner.hpp). The CUDA
// side lives in engine/cuda (built when nvcc is found, SOFTGRAD_CUDA); without it these functions say so.
#include <string>

#include "engine/sweep/sweep.hpp"
#include "engine/sweep/sweep2d.hpp"

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

// The device's memory in use (by every process) and its size, in GB; false without a device.
bool cuda_memory_in_use(double* used_gb, double* total_gb);

// The 2-D sweep on the GPU: run_sweep2d's grid (the same numbers and statuses; Grid2dControl::threads is
// ignored), cancellable between chunks, reporting per chunk. Throws as run_sweep2d for a bad grid; false
// with *error when no device is available or the problem cannot run there (device_grid_refusal).
bool run_sweep2d_cuda(const Problem& problem, const GridAxis& x, const GridAxis& y,
                      const Grid2dControl& control, Grid2dResult* out, std::string* error);

// A GPU thread is far slower than a CPU core: on an H200 a GPU sweep takes about as long as one run of a
// point does on a GPU thread (billiards 3.1 s, while a CPU thread does a point in 22 ms; the toy's 2000
// points 2-5 ms, a CPU thread 16 us a point: docs/benchmarks.md, "GPU sweeps"), so the GPU pays off only
// when the points outnumber the CPU's threads by about 150. `automatic` asks this.
constexpr long kGpuPointsPerCpuThread = 150;
inline bool gpu_pays_off(long points, int cpu_threads) {
  return points >= kGpuPointsPerCpuThread * static_cast<long>(cpu_threads);
}

// Whether this machine's GPU can run the problem's sweep at all (a device, and nothing CPU-only).
bool gpu_can_run(const Problem& problem);

// Runs on the chosen device (automatic: CUDA when a device is available, the problem can run there and
// gpu_pays_off, else the CPU). *used says which; false with *error when CUDA was asked for and cannot run.
bool run_sweep_on(SweepDevice device, const Problem& problem, const SweepControl& control, SweepResult* out,
                  std::string* used, std::string* error);

// The same for a 2-D sweep (automatic: the GPU from as many grid points as gpu_pays_off asks of a 1-D
// sweep). Throws as run_sweep2d for a bad grid.
bool run_sweep2d_on(SweepDevice device, const Problem& problem, const GridAxis& x, const GridAxis& y,
                    const Grid2dControl& control, Grid2dResult* out, std::string* used, std::string* error);

}  // namespace sg
