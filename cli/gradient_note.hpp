#pragma once
// Notes that go with a command's AD gradients, printed after its results.
#include "engine/problem/problem.hpp"

namespace sg::cli {

// "note: straight-through CFD with adaptive steps: ..." where the scene's straight-through CFD tangents are
// not under error control (engine/gradient/reference.hpp, straight_through_caveat); nothing otherwise.
void note_straight_through(const Problem& problem);

}  // namespace sg::cli
