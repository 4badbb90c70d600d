// The device functions of a build without CUDA (engine/cuda is compiled instead when SOFTGRAD_CUDA is on).
#include "engine/sweep/device_sweep.hpp"

namespace sg {

namespace {
constexpr const char* kNoCuda =
    "this build has no CUDA backend (nvcc was not found when it was configured; see docs/design.md, "
    "\"GPU sweeps\")";
}

CudaDeviceInfo cuda_device_info() {
  CudaDeviceInfo info;
  info.reason = kNoCuda;
  return info;
}

bool run_sweep_cuda(const Problem&, const SweepControl&, SweepResult*, std::string* error) {
  *error = std::string("--device cuda: ") + kNoCuda;
  return false;
}

bool run_sweep2d_cuda(const Problem& problem, const GridAxis& x, const GridAxis& y, const Grid2dControl&,
                      Grid2dResult*, std::string* error) {
  check_grid(problem, x, y);  // a bad grid says so first, as with CUDA
  *error = std::string("--device cuda: ") + kNoCuda;
  return false;
}

bool cuda_memory_in_use(double*, double*) {
  return false;
}

}  // namespace sg
