#include "engine/sweep/device_grid.hpp"

#include <cmath>

#include "engine/gradient/point_eval.hpp"

namespace sg {

GridPoint combine_grid_point(const LossSample runs[kGridRuns], double eps) {
  const double nan = std::nan("");
  GridPoint p{nan, nan, nan, nan, nan, "ok"};
  // The CPU's single AD run fails when either derivative does; then it reports neither, nor the loss.
  const LossSample* failed_ad = runs[0].stats.status != Status::ok   ? &runs[0]
                                : runs[1].stats.status != Status::ok ? &runs[1]
                                                                     : nullptr;
  if (failed_ad) {
    p.status = describe_failure(failed_ad->stats);
  } else {
    p.loss = runs[0].loss;
    p.gx = runs[0].grad;
    p.gy = runs[1].grad;
  }
  for (int k = 2; k < kGridRuns; ++k)
    if (runs[k].stats.status != Status::ok && p.status == "ok")
      p.status = "finite difference: " + describe_failure(runs[k].stats);
  p.gx_fd = (runs[2].loss - runs[3].loss) / (2.0 * eps);
  p.gy_fd = (runs[4].loss - runs[5].loss) / (2.0 * eps);
  return p;
}

}  // namespace sg
