#pragma once
// Runs the points of a sweep on the GPU, every run of a point on its own thread (engine/cuda/gpu_runs.cu):
// what the 1-D sweep (cuda_sweep.cu) and the 2-D map (cuda_sweep2d.cu) share. The runs are grouped by scalar
// type, one kernel for the AD runs and one for the plain runs, each compiled for the problem's system type
// alone (engine/cuda/sweep_kernels.hpp), launched side by side on two streams; within a launch the threads
// are run-major, so the 32 threads of a warp are one run of 32 neighbouring points, which take similar
// paths (mixing AD and plain runs in a warp serialised the two codes). The threads' scratch is in local
// memory, which the GPU interleaves across a warp, where the device can reserve it, else in a device
// buffer. Memory, streams and the stack size are kept for the next sweep (engine/cuda/device_buffer.hpp);
// one sweep at a time uses them.
#include <atomic>
#include <functional>
#include <string>

#include "engine/sweep/device_problem.hpp"

namespace sg {

struct GpuRuns {
  const DeviceProblemHost* problem = nullptr;
  const RunSpec* runs = nullptr;  // a point's runs; their slots are 0 .. count - 1
  int count = 0;
  long points = 0;
  bool two_d = false;  // the points have a second value (values_y)
  const std::atomic<bool>* cancel = nullptr;
  // A chunk's values: x[k] (and y[k] in 2-D) of points begin .. begin + count - 1.
  std::function<void(long begin, long count, double* x, double* y)> fill;
  // A chunk's samples, run-major: run slot r of point begin + k is samples[r * count + k].
  std::function<void(long begin, long count, const LossSample* samples)> take;
};

struct GpuRunsOutcome {
  long stopped_at = 0;  // the first point not run: points unless cancelled
  double kernel_seconds = 0.0;
  const char* scratch = "";  // where the threads' scratch was: "local" or "global"
};

// Whether a sweep can go to the GPU: a device is available and `refusal` (device_path_refusal or
// device_grid_refusal) is empty; else false with *error saying why ("--device cuda: ...").
bool gpu_takes(const std::string& refusal, std::string* error);

// Points in chunks sized to the free device memory (at most 16384), so that a cancel request stops the
// work between chunks and `take` reports progress per chunk. False with *error when CUDA fails.
bool run_points_on_gpu(const GpuRuns& work, GpuRunsOutcome* out, std::string* error);

}  // namespace sg
