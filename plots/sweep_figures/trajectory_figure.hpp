#pragma once
// One trajectory as a figure: positions, velocities, contact force over time and the accepted step sizes
// on a log axis.
#include "engine/simulate/trajectory.hpp"
#include "plots/plot.hpp"

namespace sg {

// particle: the particle, or for tr.layout == "rigid" the body, whose position/velocity/force are shown.
plot::Figure trajectory_figure(const Trajectory& tr, int particle = 0);

}  // namespace sg
