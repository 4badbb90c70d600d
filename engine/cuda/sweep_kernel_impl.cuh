#pragma once
// The sweep kernel and its host functions (engine/cuda/sweep_kernels.hpp), included only by the
// engine/cuda/kernel_*.cu files, each of which instantiates them for one system type.
#include <algorithm>

#include "engine/cuda/sweep_kernels.hpp"

namespace sg {

// Thread i's run (run-major: run launch.group.runs[i / points] of point i % points) in `scratch`.
template <class System>
__device__ void sweep_run(const SweepLaunch& launch, long i, DeviceScratch* scratch) {
  const RunSpec& r = launch.group.runs[i / launch.points];
  const long p = i % launch.points;
  DeviceRunner runner(*launch.problem, scratch);
  const double y = launch.values_y ? launch.values_y[p] : 0.0;
  launch.out[r.slot * launch.points + p] = runner.run_spec<System>(r, launch.values[p], y);
}

template <class System, ScratchPlace kPlace>
__global__ void sweep_runs(SweepLaunch launch) {
  const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= launch.points * launch.group.count) return;
  if constexpr (kPlace == ScratchPlace::local) {
    DeviceScratch own;  // in the thread's local memory: interleaved across the warp by the hardware
    sweep_run<System>(launch, i, &own);
  } else {
    sweep_run<System>(launch, i, launch.scratch + i);
  }
}

template <class System, ScratchPlace kPlace>
cudaError_t launch_sweep_runs(const SweepLaunch& launch, cudaStream_t stream) {
  const long threads = launch.points * launch.group.count;
  // At least one block: a launch with no runs (points 0) is the probe of whether the kernel's local memory
  // can be reserved (engine/cuda/cuda_sweep.cu).
  const auto blocks =
      static_cast<unsigned>(std::max(1L, (threads + kSweepThreadsPerBlock - 1) / kSweepThreadsPerBlock));
  sweep_runs<System, kPlace><<<blocks, kSweepThreadsPerBlock, 0, stream>>>(launch);
  return cudaGetLastError();
}

template <class System, ScratchPlace kPlace>
cudaError_t sweep_runs_attributes(cudaFuncAttributes* out) {
  return cudaFuncGetAttributes(out, sweep_runs<System, kPlace>);
}

// The explicit instantiations of one kernel_*.cu file: both scratch places for System.
#define SG_SWEEP_KERNELS_FOR(System)                                                                      \
  template cudaError_t launch_sweep_runs<System, ScratchPlace::global>(const SweepLaunch&, cudaStream_t); \
  template cudaError_t sweep_runs_attributes<System, ScratchPlace::global>(cudaFuncAttributes*);          \
  template cudaError_t launch_sweep_runs<System, ScratchPlace::local>(const SweepLaunch&, cudaStream_t);  \
  template cudaError_t sweep_runs_attributes<System, ScratchPlace::local>(cudaFuncAttributes*);

}  // namespace sg
