// The CUDA backend of 2-D sweeps: every grid point's six runs (grid_run_specs: AD along x and along y as two
// Dual<1> runs, which give the CPU's Dual<4> run's derivatives lane for lane, and the four FD runs) on GPU
// threads (engine/cuda/gpu_runs.hpp), combined on the host as run_sweep2d does (combine_grid_point).
#include <chrono>
#include <cmath>
#include <memory>

#include "engine/cuda/gpu_runs.hpp"
#include "engine/sweep/device_grid.hpp"
#include "engine/sweep/device_problem.hpp"
#include "engine/sweep/device_sweep.hpp"

namespace sg {

bool run_sweep2d_cuda(const Problem& problem, const GridAxis& x, const GridAxis& y,
                      const Grid2dControl& control, Grid2dResult* out, std::string* error) {
  const auto start = std::chrono::steady_clock::now();
  check_grid(problem, x, y);  // throws, as run_sweep2d
  if (!gpu_takes(device_grid_refusal(problem), error)) return false;
  const std::unique_ptr<DeviceProblemHost> host = prepare_device_grid(problem, x.path, y.path);
  const double eps = problem.gradient.fd_eps;
  RunSpec runs[kGridRuns];
  grid_run_specs(eps, runs);
  Grid2dResult result;
  result.x = x;
  result.y = y;
  const double nan = std::nan("");
  result.points.assign(static_cast<std::size_t>(x.points * y.points),
                       GridPoint{nan, nan, nan, nan, nan, "cancelled"});

  GpuRuns work;
  work.problem = host.get();
  work.runs = runs;
  work.count = kGridRuns;
  work.points = x.points * y.points;
  work.two_d = true;
  work.cancel = control.cancel;
  work.fill = [&](long begin, long count, double* xs, double* ys) {
    for (long k = 0; k < count; ++k) {
      xs[k] = x.value_at((begin + k) % x.points);
      ys[k] = y.value_at((begin + k) / x.points);
    }
  };
  work.take = [&](long begin, long count, const LossSample* samples) {
    for (long k = 0; k < count; ++k) {
      const long i = begin + k;
      LossSample point_runs[kGridRuns];
      for (int r = 0; r < kGridRuns; ++r) point_runs[r] = samples[r * count + k];
      GridPoint& p = result.points[static_cast<std::size_t>(i)];
      p = combine_grid_point(point_runs, eps);
      if (control.completed) control.completed->fetch_add(1, std::memory_order_relaxed);
      if (control.on_point) control.on_point(i % x.points, i / x.points, p);
    }
  };
  GpuRunsOutcome done;
  if (!run_points_on_gpu(work, &done, error)) return false;
  for (const GridPoint& p : result.points) {
    if (p.status != "ok") ++result.failed;
    if (p.status == "cancelled") result.cancelled = true;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  *out = std::move(result);
  return true;
}

}  // namespace sg
