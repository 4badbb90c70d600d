#pragma once
// A measured toss beside simulated rollouts of it (docs/identification.md): the centre's x, y and z against
// time, and the angle the cube has turned since the first frame, measured (dashed) and simulated (one line
// per rollout, e.g. before and after a fit). A state is 12 numbers: the position (m), then the rotation
// matrix row by row.
#include <array>
#include <string>
#include <vector>

#include "plots/plot.hpp"

namespace sg {

using TossState = std::array<double, 12>;

// A pose as the figure's state: the position, then the rotation matrix of the normalised quaternion
// (w, x, y, z).
TossState toss_state(const double pos[3], const double quat[4]);

struct TossRollout {
  std::string label;
  std::vector<TossState> states;  // one per time, as the measured ones
};

plot::Figure toss_replay_figure(const std::string& title, const std::vector<double>& t,
                                const std::vector<TossState>& measured,
                                const std::vector<TossRollout>& rollouts);

}  // namespace sg
