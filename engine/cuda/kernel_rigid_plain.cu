// The sweep kernel for RigidSystem<double> (engine/cuda/sweep_kernels.hpp): its own translation unit, so the
// four kernels compile in parallel.
#include "engine/cuda/sweep_kernel_impl.cuh"

namespace sg {
SG_SWEEP_KERNELS_FOR(RigidSystem<double>)
}  // namespace sg
