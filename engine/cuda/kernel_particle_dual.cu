// The sweep kernel for ParticleSystem<Dual<1>> (engine/cuda/sweep_kernels.hpp): its own translation unit, so
// the four kernels compile in parallel.
#include "engine/cuda/sweep_kernel_impl.cuh"

namespace sg {
template cudaError_t launch_sweep_runs<ParticleSystem<Dual<1>>, ScratchPlace::global>(const SweepLaunch&,
                                                                                      cudaStream_t);
template cudaError_t sweep_runs_attributes<ParticleSystem<Dual<1>>, ScratchPlace::global>(
    cudaFuncAttributes*);
template cudaError_t launch_sweep_runs<ParticleSystem<Dual<1>>, ScratchPlace::local>(const SweepLaunch&,
                                                                                     cudaStream_t);
template cudaError_t sweep_runs_attributes<ParticleSystem<Dual<1>>, ScratchPlace::local>(cudaFuncAttributes*);
}  // namespace sg
