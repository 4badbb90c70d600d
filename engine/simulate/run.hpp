#pragma once
// Runs one simulation of a problem over its whole horizon with the chosen integrator and evaluates the
// loss on the final state. The workspace is the caller's so that sweeps reuse it across points.
#include <algorithm>
#include <cmath>
#include <memory>

#include "engine/integrate/adaptive_solve.hpp"
#include "engine/integrate/fixed_solve.hpp"
#include "engine/model/particle_system.hpp"
#include "engine/model/rigid_system.hpp"
#include "engine/model/tree_from_rigid.hpp"
#include "engine/model/tree_system.hpp"
#include "engine/problem/problem.hpp"

namespace sg {

// Solver scratch for either model type, allocated on first use.
template <class S>
struct SimWorkspace {
  std::unique_ptr<RkWorkspace<ParticleSystem<S>>> particles;
  std::unique_ptr<RkWorkspace<RigidSystem<S>>> rigid;
  std::unique_ptr<RkWorkspace<TreeSystem<S>>> tree;
  // A joint tree's run: its system (reset per run, so a sweep's points reuse its ~0.5 MB of scratch) and,
  // for free bodies run as a tree, the tree built from them.
  std::unique_ptr<TreeSystem<S>> tree_system;
  std::unique_ptr<JointTreeModel<S>> rigid_tree;
  static constexpr int kMaxDim =
      std::max({RigidModel<S>::kMaxDim, ParticleModel<S>::kMaxDim, JointTreeModel<S>::kMaxDim});
  S y[kMaxDim];
};

template <class S>
struct RunOutput {
  SolveStats stats;
  S loss = 0.0;  // NaN-free only when stats.status == ok
};

// Observers may look at the system before the solve through bind(sys); NullObserver ignores it.
template <class System, class S, class Observer>
SG_HD RunOutput<S> solve_system(const System& sys, const ProblemData<S>& pd, const IntegratorSettings& cfg,
                                S* y, RkWorkspace<System>& ws, Observer& obs) {
  if constexpr (requires { obs.bind(sys); }) obs.bind(sys);
  sys.initial_state(y);
  RunOutput<S> out;
  if (!is_adaptive(cfg.method)) {
    out.stats = solve_fixed(sys, cfg, y, ws, obs);
  } else if (is_dual_v<S> && cfg.through_controller) {
    out.stats = solve_adaptive<S>(sys, cfg, y, ws, obs);
  } else {
    out.stats = solve_adaptive<double>(sys, cfg, y, ws, obs);
  }
  if (out.stats.status != Status::ok) return out;
  out.loss = evaluate_loss(pd.loss, sys, y);
  // A finite final state can still give a non-finite loss (a weight of 1e308) or loss derivative.
  if (!std::isfinite(value(out.loss)))
    out.stats.status = Status::nonfinite_loss;
  else if (!isfinite(out.loss))
    out.stats.status = Status::nonfinite_gradient;
  return out;
}

// The slot's system, reset for a run of `model` (a new one the first time).
template <class S>
TreeSystem<S>& tree_system_for_run(std::unique_ptr<TreeSystem<S>>& slot, const JointTreeModel<S>* model,
                                   double timestep) {
  if (slot)
    slot->reset(model, timestep);
  else
    slot = std::make_unique<TreeSystem<S>>(model, timestep);
  return *slot;
}

// Free bodies as a tree (model.run_as tree), built in the slot in the run's scalar: derivatives flow from
// the bodies' numbers.
template <class S>
const JointTreeModel<S>* rigid_tree_for_run(const RigidModel<S>& bodies,
                                            std::unique_ptr<JointTreeModel<S>>& slot) {
  renew(slot);
  tree_from_rigid(bodies, *slot);
  return slot.get();
}

// Whether the problem runs on the joint-tree engine: a tree scene, or free bodies with model.run_as tree.
template <class S>
bool runs_as_tree(const ProblemData<S>& pd) {
  return pd.type == ModelType::tree || (pd.type == ModelType::rigid && pd.rigid.as_tree);
}

// The tree a run steps: the scene's own, or the free bodies' built in the workspace's slot.
template <class S>
const JointTreeModel<S>* tree_model_for_run(const ProblemData<S>& pd, SimWorkspace<S>& ws) {
  return pd.type == ModelType::tree ? &pd.tree : rigid_tree_for_run(pd.rigid, ws.rigid_tree);
}

template <class S, class Observer>
RunOutput<S> run_simulation(const ProblemData<S>& pd, const IntegratorSettings& cfg, SimWorkspace<S>& ws,
                            Observer& obs) {
  if (runs_as_tree(pd)) {
    if (!ws.tree) ws.tree = std::make_unique<RkWorkspace<TreeSystem<S>>>();
    TreeSystem<S>& sys = tree_system_for_run(ws.tree_system, tree_model_for_run(pd, ws), cfg.fixed_step());
    return solve_system(sys, pd, cfg, ws.y, *ws.tree, obs);
  }
  if (pd.type == ModelType::rigid) {
    if (!ws.rigid) ws.rigid = std::make_unique<RkWorkspace<RigidSystem<S>>>();
    // The system carries per-run contact scratch: build it on the heap once per run, outside the steps.
    auto sys = std::make_unique<RigidSystem<S>>(&pd.rigid, cfg.fixed_step());
    return solve_system(*sys, pd, cfg, ws.y, *ws.rigid, obs);
  }
  if (!ws.particles) ws.particles = std::make_unique<RkWorkspace<ParticleSystem<S>>>();
  const ParticleSystem<S> sys{&pd.model, cfg.fixed_step()};
  return solve_system(sys, pd, cfg, ws.y, *ws.particles, obs);
}

}  // namespace sg
