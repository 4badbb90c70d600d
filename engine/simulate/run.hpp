#pragma once
// Runs one simulation of a problem over its whole horizon with the chosen integrator, leaving the final
// state in y. The workspace is the caller's so that sweeps reuse it across points.
#include "engine/integrate/adaptive_solve.hpp"
#include "engine/integrate/fixed_solve.hpp"
#include "engine/model/particle_system.hpp"
#include "engine/problem/problem.hpp"

namespace sg {

template <class S>
using ParticleWorkspace = RkWorkspace<ParticleSystem<S>>;

template <class S, class Observer>
SolveStats run_simulation(const ProblemData<S>& pd, const IntegratorSettings& cfg, S* y, ParticleWorkspace<S>& ws,
                          Observer& obs) {
  const ParticleSystem<S> sys{&pd.model, cfg.fixed_step()};
  sys.initial_state(y);
  if (!is_adaptive(cfg.method)) return solve_fixed(sys, cfg, y, ws, obs);
  if constexpr (is_dual_v<S>) {
    if (cfg.through_controller) return solve_adaptive<S>(sys, cfg, y, ws, obs);
  }
  return solve_adaptive<double>(sys, cfg, y, ws, obs);
}

}  // namespace sg
