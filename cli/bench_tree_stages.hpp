#pragma once
// Where a joint tree's Euler step spends its time: MuJoCo's stages as TreeSystem runs them (kinematics,
// mass matrix, collision, constraint rows, velocity-dependent forces, actuation, the smooth qacc, the Newton
// solve), timed on the states of one run; for reverse mode also the tape nodes each stage records.
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg::cli {

enum class StageScalar { plain, dual, taped };  // double, Dual<1>, Rev recording on the tape

struct StageCost {
  std::string name;
  double seconds = 0.0;  // per step
  double nodes = 0.0;    // tape nodes per step (taped only)
};

struct StageProfile {
  std::vector<StageCost> stages;  // in pipeline order, the rest of the step (load, damping, integration) last
  double step_seconds = 0.0;      // a whole step (TreeSystem::step_euler), per step
  double step_nodes = 0.0;
  long states = 0;
  bool same_qacc = true;  // the staged pipeline gave TreeSystem::forward's qacc to the bit at every state
};

// The run at the swept parameter's value x: in double, in Dual<1> with x's tangent seeded, or taped (Rev,
// each state's coordinates and the controls as the tape's variables, the tape cleared at every state, as a
// checkpointed reverse run records a step). Each stage's time is the difference of two pipeline prefixes
// run over all states, best of `rounds`, so no clock is read inside a step. Needs a tree scene with
// constraints and the Euler method (an empty profile otherwise).
StageProfile profile_tree_stages(const Problem& p, double x, int rounds, StageScalar scalar);

}  // namespace sg::cli
