#pragma once
// 2-D sweeps: two scene numbers on a grid (say kappa x start height, u0 x friction). At every grid point the
// loss, its forward-mode gradient with respect to both (one Dual<4> run) and the central finite differences
// along both (four double runs, step gradient.fd_eps as the 1-D sweep) with their disagreement. Points run in
// parallel (oneTBB), report as they finish and can be cancelled, like run_sweep.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"

namespace sg {

struct GridAxis {
  std::string path;
  double from = 0.0, to = 1.0;
  long points = 20;
  double value_at(long i) const {
    return points <= 1 ? from : from + (to - from) * static_cast<double>(i) / static_cast<double>(points - 1);
  }
};

struct GridPoint {
  double loss = 0.0;
  double gx = 0.0, gy = 0.0;        // forward-mode AD
  double gx_fd = 0.0, gy_fd = 0.0;  // central finite differences
  std::string status = "ok";
  // |AD - FD| / max(|AD|, |FD|) of the gradient vector (0 when both vanish; up to 2).
  double error() const;
};

struct Grid2dResult {
  GridAxis x, y;
  std::vector<GridPoint> points;  // row-major: index iy * x.points + ix
  double seconds = 0.0;
  long failed = 0;
  bool cancelled = false;
  const GridPoint& at(long ix, long iy) const { return points[static_cast<std::size_t>(iy * x.points + ix)]; }
};

struct Grid2dControl {
  int threads = 0;                            // 0: all cores
  const std::atomic<bool>* cancel = nullptr;  // unfinished points get "cancelled"
  std::atomic<long>* completed = nullptr;
  std::function<void(long, long, const GridPoint&)> on_point;  // (ix, iy, result), from workers
};

// Throws std::invalid_argument ("--x: ...") for a path that is not a differentiable number of the scene, the
// same path twice, or a grid that is not at least 2 x 2 with from < to.
void check_grid(const Problem& problem, const GridAxis& x, const GridAxis& y);

// The grid on the CPU's cores; throws as check_grid. engine/sweep/device_sweep.hpp runs it on a GPU.
Grid2dResult run_sweep2d(const Problem& problem, const GridAxis& x, const GridAxis& y,
                         const Grid2dControl& control = {});

nlohmann::json sweep2d_to_json(const Problem& problem, const Grid2dResult& result);

}  // namespace sg
