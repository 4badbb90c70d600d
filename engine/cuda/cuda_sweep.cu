// The CUDA backend of 1-D sweeps: every run of a sweep point (the AD run, each FD run and the reference's:
// point_run_specs) is a GPU thread (engine/cuda/gpu_runs.hpp), through a DeviceRunner, the same code the CPU
// runs (engine/sweep/device_runner.hpp); the host combines a point's runs (combine_point) as the CPU's
// evaluate_point does.
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>

#include "engine/cuda/gpu_runs.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/sweep/device_problem.hpp"
#include "engine/sweep/device_sweep.hpp"

namespace sg {
namespace {

void mark_cancelled(const Problem& problem, long from, SweepResult* result) {
  for (long i = from; i < problem.sweep.points; ++i) {
    PointResult& r = result->points[static_cast<std::size_t>(i)];
    r.value = problem.sweep.value_at(i);
    r.status = "cancelled";
  }
}

// The runs of point k of a chunk of `count` (run-major samples) combined into its result.
PointResult point_of_chunk(const Problem& problem, const PointSettings& settings, const LossSample* samples,
                           double x, long k, long count) {
  const int runs = point_run_count(settings);
  LossSample point_runs[5];
  for (int r = 0; r < runs; ++r) point_runs[r] = samples[r * count + k];
  PointResult out =
      point_result(combine_point(x, settings, point_runs, runs), problem.gradient, problem.integrator);
  out.loss_smoothed = out.grad_zeroth = out.grad_first = std::nan("");
  return out;
}

// The runtime says "driver version is insufficient" also when there is no driver at all: tell the two apart.
std::string no_device_reason(cudaError_t e) {
  if (e == cudaErrorNoDevice) return "no CUDA device found";
  if (e == cudaErrorInsufficientDriver) {
    if (!std::filesystem::exists("/proc/driver/nvidia/version"))
      return "no NVIDIA driver is loaded on this machine (no GPU, or its driver is not installed)";
    return "the NVIDIA driver is older than this build's CUDA runtime " +
           std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) +
           ": update the driver";
  }
  return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
}

}  // namespace

CudaDeviceInfo cuda_device_info() {
  static const CudaDeviceInfo info = [] {
    CudaDeviceInfo i;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      i.reason = no_device_reason(e);
      return i;
    }
    if (count == 0) {
      i.reason = "no CUDA device found";
      return i;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
      i.reason = "the CUDA device's properties cannot be read";
      return i;
    }
    i.available = true;
    i.name = prop.name;
    return i;
  }();
  return info;
}

bool cuda_memory_in_use(double* used_gb, double* total_gb) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (!cuda_device_info().available || cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return false;
  *used_gb = 1e-9 * static_cast<double>(total_bytes - free_bytes);
  *total_gb = 1e-9 * static_cast<double>(total_bytes);
  return true;
}

bool run_sweep_cuda(const Problem& problem, const SweepControl& control, SweepResult* out,
                    std::string* error) {
  const auto start = std::chrono::steady_clock::now();
  if (!gpu_takes(device_path_refusal(problem), error)) return false;
  const std::unique_ptr<DeviceProblemHost> host = prepare_device_problem(problem);
  const PointSettings& settings = host->view.settings;
  RunSpec runs[5];
  SweepResult result;
  result.reference = problem.gradient.reference;
  result.points.resize(static_cast<std::size_t>(problem.sweep.points));

  GpuRuns work;
  work.problem = host.get();
  work.runs = runs;
  work.count = point_run_specs(settings, runs);
  work.points = problem.sweep.points;
  work.cancel = control.cancel;
  work.fill = [&](long begin, long count, double* x, double*) {
    for (long k = 0; k < count; ++k) x[k] = problem.sweep.value_at(begin + k);
  };
  work.take = [&](long begin, long count, const LossSample* samples) {
    for (long k = 0; k < count; ++k) {
      const long i = begin + k;
      PointResult& r = result.points[static_cast<std::size_t>(i)];
      r = point_of_chunk(problem, settings, samples, problem.sweep.value_at(i), k, count);
      if (control.completed) control.completed->fetch_add(1, std::memory_order_relaxed);
      if (control.on_point) control.on_point(i, r);
    }
  };
  GpuRunsOutcome done;
  if (!run_points_on_gpu(work, &done, error)) return false;
  mark_cancelled(problem, done.stopped_at, &result);
  summarize_sweep(result);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.stats.kernel_seconds = done.kernel_seconds;
  result.stats.gpu_scratch = done.scratch;
  *out = std::move(result);
  return true;
}

}  // namespace sg
