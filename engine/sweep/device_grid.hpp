#pragma once
// A 2-D sweep point from its runs on the device path (grid_run_specs: AD along x, AD along y, then the four
// FD runs), with the numbers and statuses that run_sweep2d's one Dual<4> run and four plain runs give.
#include "engine/sweep/device_runner.hpp"
#include "engine/sweep/sweep2d.hpp"

namespace sg {

GridPoint combine_grid_point(const LossSample runs[kGridRuns], double eps);

}  // namespace sg
