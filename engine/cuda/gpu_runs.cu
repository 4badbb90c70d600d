// The GPU runs of sweep points (engine/cuda/gpu_runs.hpp). Compiled with --fmad=false: no fused
// multiply-adds, so the GPU's arithmetic is the CPU's operation by operation (transcendental functions
// aside).
#include "engine/cuda/gpu_runs.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>

#include "engine/cuda/device_buffer.hpp"
#include "engine/cuda/sweep_kernels.hpp"
#include "engine/sweep/device_sweep.hpp"

namespace sg {
namespace {

// Per-thread stack for the kernels' call chains (their frames hold small fixed arrays and spills; the large
// scratch is in DeviceScratch). The first run on an H200 found a 30 KB frame at -Ofast-compile=min, so the
// stack is sized from the kernels' frames at run time: twice the frame (room for the noinline callees'
// frames), at least 32 KB; the driver grows it further if the call graph needs more. Beyond the cap the
// stack of every resident thread would take tens of GB, so the sweep is refused instead.
constexpr std::size_t kMinStackBytes = 32 * 1024;
constexpr std::size_t kMaxStackBytes = 256 * 1024;

std::size_t stack_bytes_for(std::size_t frame_bytes) {
  const std::size_t page = 4096;
  return std::max(kMinStackBytes, (2 * frame_bytes + page - 1) / page * page);
}

bool check(cudaError_t e, const char* what, std::string* error) {
  if (e == cudaSuccess) return true;
  *error = std::string("CUDA: ") + what + ": " + cudaGetErrorString(e);
  return false;
}

// The runs of one scalar type and the kernel that does them.
struct KernelRuns {
  cudaError_t (*launch)(const SweepLaunch&, cudaStream_t) = nullptr;
  cudaError_t (*attributes)(cudaFuncAttributes*) = nullptr;
  RunGroup group;
};

// Where the threads' scratch should live: in local memory unless SOFTGRAD_CUDA_SCRATCH=global (read per
// sweep, so that `softgrad bench --only gpu` can time both in one process).
ScratchPlace wanted_scratch_place() {
  const char* place = std::getenv("SOFTGRAD_CUDA_SCRATCH");
  return place && std::string(place) == "global" ? ScratchPlace::global : ScratchPlace::local;
}

template <class System, ScratchPlace kPlace>
KernelRuns kernel_of() {
  KernelRuns k;
  k.launch = &launch_sweep_runs<System, kPlace>;
  k.attributes = &sweep_runs_attributes<System, kPlace>;
  return k;
}

template <class S, ScratchPlace kPlace>
KernelRuns kernel_for(ModelType type) {
  return type == ModelType::rigid ? kernel_of<RigidSystem<S>, kPlace>()
                                  : kernel_of<ParticleSystem<S>, kPlace>();
}

// [0] the AD runs, [1] the plain runs of every point (either may be empty).
void group_runs(const GpuRuns& work, ScratchPlace place, KernelRuns out[2]) {
  const ModelType type = work.problem->data.type;
  const bool local = place == ScratchPlace::local;
  out[0] = local ? kernel_for<Dual<1>, ScratchPlace::local>(type)
                 : kernel_for<Dual<1>, ScratchPlace::global>(type);
  out[1] =
      local ? kernel_for<double, ScratchPlace::local>(type) : kernel_for<double, ScratchPlace::global>(type);
  for (int k = 0; k < work.count; ++k) {
    RunGroup& g = out[work.runs[k].ad ? 0 : 1].group;
    g.runs[g.count++] = work.runs[k];
  }
}

// Whether the kernels can run with their scratch in local memory: the driver reserves a kernel's local
// memory for about as many threads as the GPU can hold, not only as many as the kernel's occupancy allows
// (90 GB more in use on an H200 after the first such sweep), which a smaller or busier GPU may not have. An
// empty launch of each says so; a refusal of memory or resources clears and falls back to device buffers.
enum class LocalProbe { fits, no_room, failed };

LocalProbe probe_local_scratch(const KernelRuns kernels[2], cudaStream_t stream, std::string* error) {
  for (int g = 0; g < 2; ++g) {
    SweepLaunch empty;
    cudaError_t e = kernels[g].launch(empty, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e == cudaErrorMemoryAllocation || e == cudaErrorLaunchOutOfResources) {
      cudaGetLastError();  // not sticky: clear it for the next launch
      return LocalProbe::no_room;
    }
    if (!check(e, "probing a sweep kernel", error)) return LocalProbe::failed;
  }
  return LocalProbe::fits;
}

// What the sweeps keep on the device between them; one sweep at a time uses it.
struct SweepContext {
  std::mutex mutex;
  DeviceBuffer<ProblemData<double>> data;
  DeviceBuffer<ProblemData<Dual<1>>> data_dual;
  DeviceBuffer<DeviceProblem> view;
  DeviceBuffer<DeviceScratch> scratch;
  DeviceBuffer<double> values, values_y;
  DeviceBuffer<LossSample> samples;
  PinnedBuffer<double> host_values, host_values_y;
  PinnedBuffer<LossSample> host_samples;
  cudaStream_t streams[2] = {};
  std::size_t stack = 0;  // the stack size set so far
};

// Never destroyed: freeing device memory while the CUDA runtime unloads at exit can crash.
SweepContext& sweep_context() {
  static auto* context = new SweepContext;
  return *context;
}

bool upload_problem(SweepContext& c, const DeviceProblemHost& host, std::string* error) {
  if (!check(c.data.reserve(1), "allocating the problem", error) ||
      !check(c.data_dual.reserve(1), "allocating the problem", error) ||
      !check(c.view.reserve(1), "allocating the problem", error))
    return false;
  DeviceProblem view = host.view;
  view.data = c.data.get();
  view.data_dual = c.data_dual.get();
  return check(cudaMemcpy(c.data.get(), &host.data, sizeof(host.data), cudaMemcpyHostToDevice), "copying",
               error) &&
         check(cudaMemcpy(c.data_dual.get(), &host.data_dual, sizeof(host.data_dual), cudaMemcpyHostToDevice),
               "copying", error) &&
         check(cudaMemcpy(c.view.get(), &view, sizeof(view), cudaMemcpyHostToDevice), "copying", error);
}

// Streams once; the stack grown to what the kernels' frames need (resizing it is slow: only when it grows).
// A kernel with its scratch in local memory has it in its frame; the stack is for the rest.
bool prepare_launches(SweepContext& c, const KernelRuns kernels[2], ScratchPlace place, std::string* error) {
  for (cudaStream_t& s : c.streams)
    if (!s && !check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream", error))
      return false;
  std::size_t frame = 0;
  for (int g = 0; g < 2; ++g) {
    cudaFuncAttributes attributes{};
    if (!check(kernels[g].attributes(&attributes), "reading a kernel's attributes", error)) return false;
    std::size_t own = attributes.localSizeBytes;
    if (place == ScratchPlace::local) own -= std::min(own, sizeof(DeviceScratch));
    frame = std::max(frame, own);
  }
  const std::size_t stack = stack_bytes_for(frame);
  if (stack > kMaxStackBytes) {
    *error = "CUDA: a sweep kernel's frame (" + std::to_string(frame) + " bytes) needs a stack over " +
             std::to_string(kMaxStackBytes / 1024) + " KB per thread";
    return false;
  }
  if (stack <= c.stack) return true;
  if (!check(cudaDeviceSetLimit(cudaLimitStackSize, stack), "setting the stack size", error)) return false;
  c.stack = stack;
  return true;
}

// How many points one launch covers: half the free memory (counting what this context already holds) in
// thread scratch, one per run, at most 16384 points.
long chunk_size(const SweepContext& c, long points, int runs, ScratchPlace place) {
  if (place == ScratchPlace::local) return std::min(points, 16384L);
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return std::min(points, 256L);
  const long fit = static_cast<long>((free_bytes + c.scratch.bytes()) / 2 / sizeof(DeviceScratch)) / runs;
  return std::max(1L, std::min({points, fit, 16384L}));
}

bool reserve_chunk(SweepContext& c, long chunk, int runs, ScratchPlace place, std::string* error) {
  const auto threads = static_cast<std::size_t>(chunk * runs);
  const auto values = static_cast<std::size_t>(chunk);
  return check(c.scratch.reserve(place == ScratchPlace::global ? threads : 0), "allocating thread scratch",
               error) &&
         check(c.values.reserve(values), "allocating", error) &&
         check(c.values_y.reserve(values), "allocating", error) &&
         check(c.samples.reserve(threads), "allocating", error) &&
         check(c.host_values.reserve(values), "allocating", error) &&
         check(c.host_values_y.reserve(values), "allocating", error) &&
         check(c.host_samples.reserve(threads), "allocating", error);
}

bool copy_values(SweepContext& c, long count, bool two_d, std::string* error) {
  const std::size_t bytes = sizeof(double) * static_cast<std::size_t>(count);
  return check(cudaMemcpy(c.values.get(), c.host_values.get(), bytes, cudaMemcpyHostToDevice),
               "copying the sweep values", error) &&
         (!two_d || check(cudaMemcpy(c.values_y.get(), c.host_values_y.get(), bytes, cudaMemcpyHostToDevice),
                          "copying the sweep values", error));
}

// Runs every run of `count` points (values already in c.host_values) into c.host_samples, run-major.
bool run_chunk(SweepContext& c, const KernelRuns kernels[2], long count, bool two_d, double* kernel_seconds,
               std::string* error) {
  if (!copy_values(c, count, two_d, error)) return false;
  const auto launched = std::chrono::steady_clock::now();
  long first_thread = 0;
  for (int g = 0; g < 2; ++g) {
    if (kernels[g].group.count == 0) continue;
    SweepLaunch launch;
    launch.problem = c.view.get();
    launch.values = c.values.get();
    launch.values_y = two_d ? c.values_y.get() : nullptr;
    launch.points = count;
    launch.group = kernels[g].group;
    launch.scratch = c.scratch.get() + first_thread;
    launch.out = c.samples.get();
    first_thread += count * launch.group.count;
    if (!check(kernels[g].launch(launch, c.streams[g]), "launching a sweep kernel", error)) return false;
  }
  for (cudaStream_t s : c.streams)
    if (!check(cudaStreamSynchronize(s), "running the sweep kernels", error)) return false;
  *kernel_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - launched).count();
  return check(
      cudaMemcpy(c.host_samples.get(), c.samples.get(),
                 sizeof(LossSample) * static_cast<std::size_t>(first_thread), cudaMemcpyDeviceToHost),
      "copying the results", error);
}

// The sweep's two kernels, with their scratch in local memory where it fits (else in a device buffer), the
// stack sized for them.
bool choose_kernels(SweepContext& c, const GpuRuns& work, ScratchPlace* place, KernelRuns kernels[2],
                    std::string* error) {
  *place = wanted_scratch_place();
  group_runs(work, *place, kernels);
  if (!prepare_launches(c, kernels, *place, error)) return false;
  if (*place == ScratchPlace::global) return true;
  const LocalProbe probe = probe_local_scratch(kernels, c.streams[0], error);
  if (probe != LocalProbe::no_room) return probe == LocalProbe::fits;
  *place = ScratchPlace::global;
  group_runs(work, *place, kernels);
  return prepare_launches(c, kernels, *place, error);
}

}  // namespace

bool gpu_takes(const std::string& refusal, std::string* error) {
  const CudaDeviceInfo info = cuda_device_info();
  const std::string why = !info.available ? info.reason : refusal;
  if (why.empty()) return true;
  *error = "--device cuda: " + why;
  return false;
}

bool run_points_on_gpu(const GpuRuns& work, GpuRunsOutcome* out, std::string* error) {
  SweepContext& c = sweep_context();
  const std::lock_guard<std::mutex> one_sweep_at_a_time(c.mutex);
  ScratchPlace place = ScratchPlace::local;
  KernelRuns kernels[2];
  if (!upload_problem(c, *work.problem, error) || !choose_kernels(c, work, &place, kernels, error))
    return false;
  const long chunk = chunk_size(c, work.points, work.count, place);
  if (!reserve_chunk(c, chunk, work.count, place, error)) return false;
  *out = GpuRunsOutcome{};
  out->scratch = place == ScratchPlace::local ? "local" : "global";
  for (long begin = 0; begin < work.points; begin += chunk) {
    out->stopped_at = begin;
    if (work.cancel && work.cancel->load(std::memory_order_relaxed)) return true;
    const long count = std::min(chunk, work.points - begin);
    work.fill(begin, count, c.host_values.get(), c.host_values_y.get());
    if (!run_chunk(c, kernels, count, work.two_d, &out->kernel_seconds, error)) return false;
    work.take(begin, count, c.host_samples.get());
  }
  out->stopped_at = work.points;
  return true;
}

}  // namespace sg
