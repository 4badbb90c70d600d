// The CUDA backend of sweeps: one run of a sweep point per GPU thread (the AD run, each FD run and the
// reference's: point_run), each through a DeviceRunner in its own slice of device memory
// (engine/sweep/device_runner.hpp), the same code the CPU runs; the host combines a point's runs
// (combine_point) as the CPU's evaluate_point does. A thread per run rather than per point: a GPU thread is
// hundreds of times slower than a CPU core, and small sweeps left the GPU idle (on an H200, 200 points ran
// 1.5-1.6x faster this way; 10,000 points about as fast). Points go in chunks sized to the free device
// memory, so that a cancel request stops the sweep between chunks and progress is reported per chunk.
// Compiled with --fmad=false: no fused multiply-adds, so the GPU's arithmetic is the CPU's operation by
// operation (transcendental functions aside).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

#include "engine/gradient/point_eval.hpp"
#include "engine/sweep/device_problem.hpp"
#include "engine/sweep/device_sweep.hpp"

namespace sg {
namespace {

// Thread i runs run i % runs of point i / runs.
__global__ void sweep_point_runs(const DeviceProblem* problem, const double* values, long count, int runs,
                                 DeviceScratch* scratch, LossSample* out) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count * runs) return;
  DeviceRunner runner(*problem, scratch + i);
  out[i] = point_run(runner, values[i / runs], problem->settings, static_cast<int>(i % runs));
}

constexpr int kThreadsPerBlock = 64;
// Per-thread stack for the kernel's call chain (its frames hold small fixed arrays and spills; the large
// scratch is in DeviceScratch). The first run on an H200 found a 30 KB frame at -Ofast-compile=min, so the
// stack is sized from the kernel's frame at run time: twice the frame (room for the noinline callees'
// frames), at least 32 KB; the driver grows it further if the call graph needs more. Beyond the cap the
// stack of every resident thread would take tens of GB, so the sweep is refused instead.
constexpr std::size_t kMinStackBytes = 32 * 1024;
constexpr std::size_t kMaxStackBytes = 256 * 1024;

std::size_t stack_bytes_for(std::size_t frame_bytes) {
  const std::size_t page = 4096;
  return std::max(kMinStackBytes, (2 * frame_bytes + page - 1) / page * page);
}

// Device memory that frees itself.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  cudaError_t allocate(std::size_t count) {
    return cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T));
  }
  T* get() const { return ptr_; }

 private:
  T* ptr_ = nullptr;
};

bool check(cudaError_t e, const char* what, std::string* error) {
  if (e == cudaSuccess) return true;
  *error = std::string("CUDA: ") + what + ": " + cudaGetErrorString(e);
  return false;
}

// How many points one launch covers: half the free memory in thread scratch (one per run), at most 16384
// points.
long chunk_size(long points, int runs) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return std::min(points, 256L);
  const long fit = static_cast<long>(free_bytes / 2 / sizeof(DeviceScratch)) / runs;
  return std::max(1L, std::min({points, fit, 16384L}));
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

bool run_sweep_cuda(const Problem& problem, const SweepControl& control, SweepResult* out,
                    std::string* error) {
  const auto start = std::chrono::steady_clock::now();
  const CudaDeviceInfo info = cuda_device_info();
  if (!info.available) {
    *error = "--device cuda: " + info.reason;
    return false;
  }
  if (const std::string why = device_path_refusal(problem); !why.empty()) {
    *error = "--device cuda: " + why;
    return false;
  }
  const std::unique_ptr<DeviceProblemHost> host = prepare_device_problem(problem);
  DeviceArray<ProblemData<double>> data;
  DeviceArray<ProblemData<Dual<1>>> data_dual;
  DeviceArray<DeviceProblem> view;
  DeviceProblem device_view = host->view;
  if (!check(data.allocate(1), "allocating the problem", error) ||
      !check(data_dual.allocate(1), "allocating the problem", error) ||
      !check(view.allocate(1), "allocating the problem", error))
    return false;
  device_view.data = data.get();
  device_view.data_dual = data_dual.get();
  if (!check(cudaMemcpy(data.get(), &host->data, sizeof(host->data), cudaMemcpyHostToDevice), "copying",
             error) ||
      !check(cudaMemcpy(data_dual.get(), &host->data_dual, sizeof(host->data_dual), cudaMemcpyHostToDevice),
             "copying", error) ||
      !check(cudaMemcpy(view.get(), &device_view, sizeof(device_view), cudaMemcpyHostToDevice), "copying",
             error))
    return false;

  cudaFuncAttributes attributes{};
  if (!check(cudaFuncGetAttributes(&attributes, sweep_point_runs), "reading the kernel's attributes", error))
    return false;
  const std::size_t stack = stack_bytes_for(attributes.localSizeBytes);
  if (stack > kMaxStackBytes) {
    *error = "CUDA: the sweep kernel's frame (" + std::to_string(attributes.localSizeBytes) +
             " bytes) needs a stack over " + std::to_string(kMaxStackBytes / 1024) + " KB per thread";
    return false;
  }
  if (!check(cudaDeviceSetLimit(cudaLimitStackSize, stack), "setting the stack size", error)) return false;

  const long n = problem.sweep.points;
  const PointSettings& settings = host->view.settings;
  const int runs = point_run_count(settings);
  const long chunk = chunk_size(n, runs);
  const auto threads = static_cast<std::size_t>(chunk * runs);
  DeviceArray<DeviceScratch> scratch;
  DeviceArray<double> values;
  DeviceArray<LossSample> samples;
  if (!check(scratch.allocate(threads), "allocating thread scratch", error) ||
      !check(values.allocate(static_cast<std::size_t>(chunk)), "allocating", error) ||
      !check(samples.allocate(threads), "allocating", error))
    return false;

  SweepResult result;
  double kernel_seconds = 0.0;
  result.reference = problem.gradient.reference;
  result.points.resize(static_cast<std::size_t>(n));
  std::vector<double> x(static_cast<std::size_t>(chunk));
  std::vector<LossSample> got(threads);
  for (long begin = 0; begin < n; begin += chunk) {
    const long count = std::min(chunk, n - begin);
    if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
      for (long i = begin; i < n; ++i) {
        PointResult& r = result.points[static_cast<std::size_t>(i)];
        r.value = problem.sweep.value_at(i);
        r.status = "cancelled";
      }
      break;
    }
    for (long k = 0; k < count; ++k) x[static_cast<std::size_t>(k)] = problem.sweep.value_at(begin + k);
    if (!check(cudaMemcpy(values.get(), x.data(), sizeof(double) * static_cast<std::size_t>(count),
                          cudaMemcpyHostToDevice),
               "copying the sweep values", error))
      return false;
    const long launched_threads = count * runs;
    const unsigned blocks =
        static_cast<unsigned>((launched_threads + kThreadsPerBlock - 1) / kThreadsPerBlock);
    const auto launched = std::chrono::steady_clock::now();
    sweep_point_runs<<<blocks, kThreadsPerBlock>>>(view.get(), values.get(), count, runs, scratch.get(),
                                                   samples.get());
    const bool ran = check(cudaGetLastError(), "launching the sweep kernel", error) &&
                     check(cudaDeviceSynchronize(), "running the sweep kernel", error);
    kernel_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - launched).count();
    if (!ran || !check(cudaMemcpy(got.data(), samples.get(),
                                  sizeof(LossSample) * static_cast<std::size_t>(launched_threads),
                                  cudaMemcpyDeviceToHost),
                       "copying the results", error))
      return false;
    for (long k = 0; k < count; ++k) {
      const long i = begin + k;
      PointResult& r = result.points[static_cast<std::size_t>(i)];
      const PointNumbers numbers = combine_point(x[static_cast<std::size_t>(k)], settings,
                                                 &got[static_cast<std::size_t>(k * runs)], runs);
      r = point_result(numbers, problem.gradient, problem.integrator);
      r.loss_smoothed = r.grad_zeroth = r.grad_first = std::nan("");
      if (control.completed) control.completed->fetch_add(1, std::memory_order_relaxed);
      if (control.on_point) control.on_point(i, r);
    }
  }
  summarize_sweep(result);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.stats.kernel_seconds = kernel_seconds;
  *out = std::move(result);
  return true;
}

}  // namespace sg
