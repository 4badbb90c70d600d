#pragma once
// `softgrad bench --only finger`: issue #35's finger-push target, the 200-point sweep of
// scenes/finger_push.json (AD + central FD, the scene's integrator) on the machine's cores, with
// straight-through CFD as shipped and without it.
#include <string>

namespace sg::cli {

void bench_finger(const std::string& scenes, int rounds);

}  // namespace sg::cli
