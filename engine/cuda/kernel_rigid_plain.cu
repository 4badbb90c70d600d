// The sweep kernel for RigidSystem<double> (engine/cuda/sweep_kernels.hpp): its own translation unit, so the
// four kernels compile in parallel.
#include "engine/cuda/sweep_kernel_impl.cuh"

namespace sg {
template cudaError_t launch_sweep_runs<RigidSystem<double>, ScratchPlace::global>(const SweepLaunch&,
                                                                                  cudaStream_t);
template cudaError_t sweep_runs_attributes<RigidSystem<double>, ScratchPlace::global>(cudaFuncAttributes*);
template cudaError_t launch_sweep_runs<RigidSystem<double>, ScratchPlace::local>(const SweepLaunch&,
                                                                                 cudaStream_t);
template cudaError_t sweep_runs_attributes<RigidSystem<double>, ScratchPlace::local>(cudaFuncAttributes*);
}  // namespace sg
