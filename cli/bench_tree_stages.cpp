#include "cli/bench_tree_stages.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "cli/tree_trajectory.hpp"
#include "engine/articulated/forward_actuated.hpp"
#include "engine/core/dual.hpp"
#include "engine/core/reverse.hpp"

namespace sg::cli {
namespace {

using Clock = std::chrono::steady_clock;

// One staged forward pass's scratch, apart from the system's own (on the heap: the rows are large).
template <class S>
struct StageScratch {
  TreeData<S> d;
  TreeConstraintModel<S> cm;
  TreeConstraintData<S> cd;
  TreeActuatorData<S> ad;
  TreeNewtonWorkspace ws;
  double ctrl[kMaxActuators] = {};
  S y[JointTreeModel<S>::kMaxDim];  // the state being stepped, in S
};

constexpr int kStages = 10;
const char* const kStageNames[kStages] = {
    "load the state (qpos with phi folded, qvel)",
    "kinematics (mj_kinematics, mj_comPos)",
    "mass matrix (mj_crb)",
    "collision (geom frames, mj_collision)",
    "constraint rows (mj_makeConstraint: Jacobians, impedance)",
    "velocities, bias and passive forces (mj_comVel, mj_passive, mj_rne)",
    "reference accelerations (mj_referenceConstraint)",
    "actuation (mj_transmission, mj_fwdActuation)",
    "smooth qacc (Cholesky of qM)",
    "constraint solve (Newton)",
};

// The state (and for the tape the controls) in S: a taped step starts a fresh tape with them as variables.
template <class S, class Y>
void lift_state(const TreeSystem<S>& sys, const Y& y, StageScratch<S>& s) {
  if constexpr (is_reverse_v<S>) {
    RevTape::current().clear();
    for (int i = 0; i < sys.model().act.nu; ++i) s.ad.ctrl[i] = Rev::variable(s.ctrl[i]);
    for (int i = 0; i < sys.dim(); ++i) s.y[i] = Rev::variable(y[static_cast<std::size_t>(i)]);
  } else {
    for (int i = 0; i < sys.dim(); ++i) s.y[i] = y[static_cast<std::size_t>(i)];
  }
}

// Stage k of tree_forward_constrained with actuators (forward_actuated.hpp), in its order.
template <class S, class Y>
void run_stage(int k, const TreeSystem<S>& sys, const Y& y, StageScratch<S>& s) {
  const TreeModel<S>& m = sys.tree();
  switch (k) {
    case 0:
      lift_state(sys, y, s);
      sys.load_state(s.y);
      std::copy(sys.data().qpos, sys.data().qpos + m.nq, s.d.qpos);
      std::copy(sys.data().qvel, sys.data().qvel + m.nv, s.d.qvel);
      std::copy(sys.data().qfrc_applied, sys.data().qfrc_applied + m.nv, s.d.qfrc_applied);
      break;
    case 1:
      tree_kinematics(m, s.d);
      tree_com_pos(m, s.d);
      break;
    case 2:
      tree_crb(m, s.d);
      break;
    case 3:
      tree_geom_kinematics(s.cm, s.d, s.cd);
      tree_collision(m, s.cm, s.d, s.cd);
      break;
    case 4:
      tree_make_constraint(m, s.cm, s.d, s.cd);
      break;
    case 5:
      tree_fwd_velocity(m, s.d);
      break;
    case 6:
      tree_reference_constraint(m, s.cm, s.d, s.cd);
      break;
    case 7:
      tree_actuation(m, sys.model().act, s.d, s.ad);
      break;
    case 8:
      tree_fwd_acceleration(m, s.d, s.ad.qfrc_actuator);
      std::copy(s.d.qacc, s.d.qacc + m.nv, s.cd.qacc_smooth);
      break;
    default:
      tree_solve_constraints(m, s.cm, s.d, s.cd, s.ws);
      break;
  }
}

template <class Y>
using States = std::vector<std::vector<Y>>;

struct Cost {
  double seconds = 0.0;
  long nodes = 0;
};

// Stages 0 .. upto - 1 at every state but the last (where no step starts).
template <class S, class Y>
Cost prefix_cost(int upto, const TreeSystem<S>& sys, const States<Y>& states, StageScratch<S>& s) {
  Cost c;
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i + 1 < states.size(); ++i) {
    for (int k = 0; k < upto; ++k) run_stage(k, sys, states[i], s);
    if constexpr (is_reverse_v<S>) c.nodes += upto > 0 ? RevTape::current().size() : 0;
  }
  c.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return c;
}

template <class S, class Y>
Cost step_cost(const TreeSystem<S>& sys, const States<Y>& states, double h, StageScratch<S>& s) {
  Cost c;
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i + 1 < states.size(); ++i) {
    lift_state(sys, states[i], s);
    sys.step_euler(s.y, h);
    if constexpr (is_reverse_v<S>) c.nodes += RevTape::current().size();
  }
  c.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return c;
}

// Whether the staged pass reproduces TreeSystem::forward bit for bit (so the profile times the real thing).
template <class S, class Y>
bool same_qacc(const TreeSystem<S>& sys, const States<Y>& states, StageScratch<S>& s) {
  for (std::size_t i = 0; i + 1 < states.size(); ++i) {
    for (int k = 0; k < kStages; ++k) run_stage(k, sys, states[i], s);
    sys.forward(s.y);
    for (int v = 0; v < sys.tree().nv; ++v) {
      const double a = value(s.d.qacc[v]), b = value(sys.data().qacc[v]);
      if (std::memcmp(&a, &b, sizeof a) != 0) return false;
    }
  }
  return true;
}

template <class S, class Y>
StageProfile profile(const ProblemData<S>& pd, const States<Y>& states, double h, int rounds) {
  const auto sys = std::make_unique<TreeSystem<S>>(&pd.tree, h);
  auto scratch = std::make_unique<StageScratch<S>>();
  scratch->cm = pd.tree.con;
  scratch->cm.opt.timestep = h;  // as TreeSystem sets it, for refsafe
  for (int i = 0; i < pd.tree.act.nu; ++i) scratch->ad.ctrl[i] = pd.tree.ctrl[i];
  for (int i = 0; i < pd.tree.act.nu; ++i) scratch->ctrl[i] = value(pd.tree.ctrl[i]);
  StageProfile out;
  out.states = static_cast<long>(states.size()) - 1;
  out.same_qacc = same_qacc(*sys, states, *scratch);
  std::vector<Cost> prefix(kStages + 1, Cost{1e300, 0});
  Cost step{1e300, 0};
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k <= kStages; ++k) {
      const Cost c = prefix_cost(k, *sys, states, *scratch);
      prefix[k] = {std::min(prefix[k].seconds, c.seconds), c.nodes};
    }
    const Cost c = step_cost(*sys, states, h, *scratch);
    step = {std::min(step.seconds, c.seconds), c.nodes};
  }
  if constexpr (is_reverse_v<S>) RevTape::current().clear();
  const double n = static_cast<double>(std::max(out.states, 1L));
  for (int k = 0; k < kStages; ++k)
    out.stages.push_back({kStageNames[k], (prefix[k + 1].seconds - prefix[k].seconds) / n,
                          static_cast<double>(prefix[k + 1].nodes - prefix[k].nodes) / n});
  out.stages.push_back({"rest of the step (implicit damping, velocity and position update)",
                        (step.seconds - prefix[kStages].seconds) / n,
                        static_cast<double>(step.nodes - prefix[kStages].nodes) / n});
  out.step_seconds = step.seconds / n;
  out.step_nodes = static_cast<double>(step.nodes) / n;
  return out;
}

template <class S>
States<S> trajectory_of(const ProblemData<S>& pd, const IntegratorSettings& cfg) {
  const auto sys = std::make_unique<TreeSystem<S>>(&pd.tree, cfg.fixed_step());
  return tree_trajectory(*sys, cfg);
}

}  // namespace

StageProfile profile_tree_stages(const Problem& p, double x, int rounds, StageScalar scalar) {
  if (p.data.type != ModelType::tree || !p.data.tree.constrained() || p.integrator.method != Method::euler)
    return {};
  const double h = p.integrator.fixed_step();
  auto pd = std::make_unique<ProblemData<double>>(p.data);
  if (double* slot = parameter_slot(*pd, p.sweep.parameter)) *slot = x;
  if (scalar == StageScalar::plain) return profile(*pd, trajectory_of(*pd, p.integrator), h, rounds);
  if (scalar == StageScalar::taped) {
    auto taped = std::make_unique<ProblemData<Rev>>(convert_problem<Rev>(*pd));
    return profile(*taped, trajectory_of(*pd, p.integrator), h, rounds);
  }
  auto dual = std::make_unique<ProblemData<Dual<1>>>(convert_problem<Dual<1>>(*pd));
  if (Dual<1>* slot = parameter_slot(*dual, p.sweep.parameter)) *slot = seeded<Dual<1>>(x, 0);
  return profile(*dual, trajectory_of(*dual, p.integrator), h, rounds);
}

}  // namespace sg::cli
