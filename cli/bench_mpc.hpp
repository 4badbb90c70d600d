#pragma once
// `softgrad bench --only mpc`: issue #37's planning-step targets on the push task
// (scenes/mpc_finger_push.json): a gradient planning step (horizon 50, 10 Adam iterations) under 50 ms and
// a predictive-sampling step (64 samples) under 30 ms on 2 cores.
#include <string>

namespace sg::cli {

void bench_mpc(const std::string& scenes, int rounds);

}  // namespace sg::cli
