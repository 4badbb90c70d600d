#pragma once
// `softgrad bench --only arm26`: issue #37's target on MuJoCo's tendon_arm/arm26.xml (6 muscles on wrapping
// tendons, scenes/mpc_arm26_reach.json with constant controls): softgrad's Euler step within 2x of MuJoCo
// 2.2.2's mj_step, measured side by side in one run, and the forward-mode steps against the plain one.
#include <string>

namespace sg::cli {

void bench_arm26(const std::string& scenes, int rounds);

}  // namespace sg::cli
