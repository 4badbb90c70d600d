#pragma once
// `softgrad bench --only humanoid`: issue #35's targets on MuJoCo's humanoid (scenes/humanoid_fall.json),
// measured side by side in one run: softgrad's Euler step against MuJoCo 2.2.2's mj_step on the same
// states, a forward-mode gradient step against the plain step, the reverse-mode gradient of all controls of
// a 1 s rollout against the plain rollout, and where the step's time goes.
#include <string>

namespace sg::cli {

void bench_humanoid(const std::string& scenes, int rounds);

}  // namespace sg::cli
