#pragma once
// A body that ends up inside the ground plane by more than its own size has gone through the floor: with a
// friction of 1e3 MuJoCo's soft contact (and so ours, validated against it to 1e-21) lets a box sink through
// while every number stays finite and the run is "ok". This check turns that into a warning.
#include <string>

#include "engine/problem/problem.hpp"
#include "engine/simulate/trajectory.hpp"

namespace sg {

// "" when no rigid body's centre goes below the plane by more than its size (the length of its half-size
// vector); otherwise a warning naming the first such body, the time and the depth.
std::string sunk_through_plane(const Problem& problem, const Trajectory& trajectory);

}  // namespace sg
