#pragma once
// The sweep kernels, one per system and scalar type (engine/cuda/kernel_*.cu instantiate one each): a
// kernel holds only its own system's solver code, so each is a fraction of the one kernel that used to
// dispatch at run time, compiles faster and needs fewer registers. Host code launches them by the problem's
// model type and each run's scalar type (point_run_is_ad).
#include <cuda_runtime.h>

#include "engine/sweep/device_runner.hpp"

namespace sg {

// Which of a point's runs one launch does: all of them of one scalar type (at most 4: a 1-D point's plain
// runs with the fd_tight reference, a 2-D point's FD runs).
struct RunGroup {
  RunSpec runs[4];
  int count = 0;
};

// One launch: `points` sweep points (values, and values_y in a 2-D sweep, else null), the runs of `group`
// for each; thread i does run group.runs[i / points] of point i % points (run-major: a warp holds
// neighbouring points, which take similar paths, all of one run). Each thread has scratch[i] (unused when
// the kernel keeps its scratch in local memory); run r of point p lands in out[r.slot * points + p].
struct SweepLaunch {
  const DeviceProblem* problem = nullptr;
  const double* values = nullptr;
  const double* values_y = nullptr;
  long points = 0;
  RunGroup group;
  DeviceScratch* scratch = nullptr;
  LossSample* out = nullptr;
};

constexpr int kSweepThreadsPerBlock = 64;

// Where a thread's DeviceScratch lives: a slice of one device buffer (SweepLaunch::scratch), or the
// thread's local memory, which the GPU interleaves across the threads of a warp (word j of thread i next to
// word j of thread i + 1), so that a warp's loads of the same field are one coalesced access.
enum class ScratchPlace { global, local };

// Launches the kernel for System on `stream` (asynchronously; errors of the launch itself are returned).
template <class System, ScratchPlace kPlace>
cudaError_t launch_sweep_runs(const SweepLaunch& launch, cudaStream_t stream);

// The kernel's attributes (its local memory per thread sizes the stack).
template <class System, ScratchPlace kPlace>
cudaError_t sweep_runs_attributes(cudaFuncAttributes* out);

// Instantiated once each, in engine/cuda/kernel_*.cu (sweep_kernel_impl.cuh).
#define SG_SWEEP_KERNEL_EXTERN(System, Place)                                                     \
  extern template cudaError_t launch_sweep_runs<System, Place>(const SweepLaunch&, cudaStream_t); \
  extern template cudaError_t sweep_runs_attributes<System, Place>(cudaFuncAttributes*);
SG_SWEEP_KERNEL_EXTERN(RigidSystem<double>, ScratchPlace::global)
SG_SWEEP_KERNEL_EXTERN(RigidSystem<double>, ScratchPlace::local)
SG_SWEEP_KERNEL_EXTERN(RigidSystem<Dual<1>>, ScratchPlace::global)
SG_SWEEP_KERNEL_EXTERN(RigidSystem<Dual<1>>, ScratchPlace::local)
SG_SWEEP_KERNEL_EXTERN(ParticleSystem<double>, ScratchPlace::global)
SG_SWEEP_KERNEL_EXTERN(ParticleSystem<double>, ScratchPlace::local)
SG_SWEEP_KERNEL_EXTERN(ParticleSystem<Dual<1>>, ScratchPlace::global)
SG_SWEEP_KERNEL_EXTERN(ParticleSystem<Dual<1>>, ScratchPlace::local)
#undef SG_SWEEP_KERNEL_EXTERN

}  // namespace sg
