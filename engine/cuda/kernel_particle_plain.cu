// The sweep kernel for ParticleSystem<double> (engine/cuda/sweep_kernels.hpp): its own translation unit, so
// the four kernels compile in parallel.
#include "engine/cuda/sweep_kernel_impl.cuh"

namespace sg {
template cudaError_t launch_sweep_runs<ParticleSystem<double>, ScratchPlace::global>(const SweepLaunch&,
                                                                                     cudaStream_t);
template cudaError_t sweep_runs_attributes<ParticleSystem<double>, ScratchPlace::global>(cudaFuncAttributes*);
template cudaError_t launch_sweep_runs<ParticleSystem<double>, ScratchPlace::local>(const SweepLaunch&,
                                                                                    cudaStream_t);
template cudaError_t sweep_runs_attributes<ParticleSystem<double>, ScratchPlace::local>(cudaFuncAttributes*);
}  // namespace sg
