#pragma once
// The figure of softgrad mpc runs: the task's cost along the executed motion (one curve per run: planner,
// CFD on or off), each planning step's plan cost, the gradient planner's gradient norm before clipping, and
// the executed controls.
#include <string>
#include <vector>

#include "engine/control/mpc.hpp"
#include "plots/plot.hpp"

namespace sg {

struct LabelledMpc {
  std::string label;  // e.g. "gradient, CFD on"
  const MpcResult* result;
};

plot::Figure mpc_figure(const std::vector<LabelledMpc>& runs, double success);

}  // namespace sg
