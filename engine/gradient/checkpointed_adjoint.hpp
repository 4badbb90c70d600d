#pragma once
// Reverse mode with bounded memory: the discrete adjoint of a whole run, recomputed segment by segment from
// checkpoints instead of taping the run at once (Diffrax's RecursiveCheckpointAdjoint keeps a bounded number
// of states in the same spirit; here the checkpoints are uniform).
//
// 1. Forward pass in double (the problem's double twin, ValuesTwin): the values of a taped run bit for bit,
//    since Rev computes values by the same formulas (tests/engine/test_checkpointed_adjoint.cpp compares the
//    steps, events and losses), at the cost of a plain run. Every `segment_steps` accepted steps a checkpoint
//    keeps what the solve carries from one step to the next: the state y, f(y) (the FSAL stage), the solver's
//    counters and controller, the system's mode and the observer's running sum (types shared by both
//    scalars: AdaptiveCheckpoint, RigidMemo, ...).
// 2. Backward, last segment first: restore the checkpoint, make y (and the observer's sum) fresh tape
//    variables, re-attach f(y)'s derivative (the stored value, with the derivative of f evaluated at the
//    restored y: in exact arithmetic the FSAL stage is f(y)), run the segment on the tape, seed its end state
//    with the adjoint the later segment left on its start variables, sweep, and truncate the tape.
// 3. The nodes before the first segment (parameters, the system's per-run constants, the initial state) keep
//    their adjoints across segments; one sweep over them at the end gives d loss / d parameter.
//
// Memory: one segment's tape plus the checkpoints (a few kB each), whatever the length of the run. Cost: a
// plain run, the taped replay, and one extra f(y) per segment.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "engine/core/reverse.hpp"
#include "engine/gradient/parallel_replay.hpp"
#include "engine/gradient/segment_replay.hpp"
#include "engine/simulate/run.hpp"

namespace sg {

// The double twin of a taped problem, for the values-only pass: the same problem in double (the parameters'
// values in place of the tape's leaves), a workspace, the objective's observer and loss in double.
template <class Observer, class LossFn>
struct ValuesTwin {
  const ProblemData<double>* pd;
  SimWorkspace<double>* ws;
  Observer* obs;
  LossFn loss_of;
};

// The scene's loss on the final state, as an adjoint's loss_of(sys, y, observer): for the taped problem and
// its double twin alike.
template <class S>
auto final_state_loss(const ProblemData<S>& pd) {
  return [&pd](const auto& sys, const S* y, NullObserver&) { return evaluate_loss(pd.loss, sys, y); };
}

template <class Observer, class LossFn>
ValuesTwin<Observer, LossFn> values_twin(const ProblemData<double>& pd, SimWorkspace<double>& ws,
                                         Observer& obs, LossFn loss_of) {
  return {&pd, &ws, &obs, loss_of};
}

struct AdjointRun {
  SolveStats stats;
  double loss = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> grad;  // d loss / d leaf, per leaf (NaN unless stats.status == ok)
  long segments = 0;
  long peak_nodes = 0;               // the largest tape: the constants plus one segment
  long peak_links = 0;               // the fused nodes' parents on that tape
  std::size_t checkpoint_bytes = 0;  // what the checkpoints hold
  std::size_t peak_bytes() const {   // the tape's nodes, links and adjoints, and the checkpoints
    return static_cast<std::size_t>(peak_nodes) * (sizeof(RevNode) + sizeof(double)) +
           static_cast<std::size_t>(peak_links) * sizeof(RevLink) + checkpoint_bytes;
  }
};

namespace adjoint_detail {

// The run and its adjoint with one solver type (Solver on the tape, ValuesSolver its double twin). The tape
// holds the leaves and the system's constants.
template <class Solver, class ValuesSolver, class System, class ValuesSystem, class Observer, class LossFn,
          class ValuesObserver, class ValuesLossFn>
AdjointRun run_segments(const System& sys, const ValuesSystem& values_sys, const IntegratorSettings& cfg,
                        Rev* y, RkWorkspace<System>& ws, double* values_y,
                        RkWorkspace<ValuesSystem>& values_ws, Observer& obs, LossFn& loss_of,
                        ValuesObserver& values_obs, ValuesLossFn& values_loss, const std::vector<int>& leaves,
                        long segment_steps, int threads) {
  static_assert(std::is_same_v<typename Solver::Checkpoint, typename ValuesSolver::Checkpoint> &&
                    std::is_same_v<typename System::Memo, typename ValuesSystem::Memo>,
                "a double run's checkpoints must restore the taped run");
  RevTape& tape = RevTape::current();
  AdjointRun out;
  out.grad.assign(leaves.size(), std::numeric_limits<double>::quiet_NaN());
  if constexpr (requires { obs.bind(sys); }) obs.bind(sys);
  const int n = sys.dim();
  sys.initial_state(y);
  std::vector<Rev> y0(y, y + n);
  const typename System::Memo memo0 = sys.memo();
  const Observer obs0 = obs;
  const int prefix = tape.size();
  const long every = segment_steps > 0 ? segment_steps : Solver::kNoLimit;

  std::vector<Checkpoint<ValuesSolver, ValuesSystem>> marks;
  std::vector<std::uint64_t> rejected;
  out.loss = values_pass<ValuesSolver>(values_sys, cfg, values_y, values_ws, values_obs, values_loss, every,
                                       marks, rejected, &out.stats);
  out.checkpoint_bytes = bytes_of(marks);
  if (out.stats.status != Status::ok) return out;
  if (!std::isfinite(out.loss)) {
    out.stats.status = Status::nonfinite_loss;
    return out;
  }

  using Plan = ReplayPlan<Checkpoint<ValuesSolver, ValuesSystem>, System, Observer>;
  const Plan plan{marks,  rejected, y0, memo0, obs0, cfg, every, static_cast<long>(marks.size()) + 1,
                  prefix, out.loss};
  SegmentSeed seed{std::vector<double>(static_cast<std::size_t>(n), 0.0), 0.0,
                   std::vector<double>(static_cast<std::size_t>(prefix), 0.0)};
  ReplayLane<System, Observer> lane{&sys, y, &ws, &obs, {}};
  bool replayed = true;
  if (threads > 1 && plan.segments > 1) {
    replayed =
        replay_in_parallel<Solver>(plan, lane, loss_of, threads, seed, &out.peak_nodes, &out.peak_links);
  } else {
    for (long s = plan.segments - 1; s >= 0 && replayed; --s)
      replayed = sweep_segment(plan, s, record_segment<Solver>(plan, s, lane, loss_of), lane, seed);
    out.peak_nodes = lane.peak_nodes;
    out.peak_links = lane.peak_links;
  }
  // A replay that ended elsewhere than the double run would give another trajectory's adjoint: refused
  // (never on the shipped scenes: tests/engine/test_checkpointed_adjoint.cpp).
  if (!replayed) {
    out.stats.status = Status::invalid;
    return out;
  }
  std::vector<double>& adj = seed.prefix_adj;
  sweep_nodes(tape, adj, prefix - 1, 1);
  for (std::size_t j = 0; j < leaves.size(); ++j) out.grad[j] = adj[static_cast<std::size_t>(leaves[j])];
  out.segments = plan.segments;
  return out;
}

// The taped system and its double twin, with their workspaces and objectives.
template <class System, class ValuesSystem, class Observer, class LossFn, class ValuesObserver,
          class ValuesLossFn>
struct Pair {
  const System& sys;
  const ValuesSystem& values_sys;
  Rev* y;
  RkWorkspace<System>& ws;
  double* values_y;
  RkWorkspace<ValuesSystem>& values_ws;
  Observer& obs;
  LossFn& loss_of;
  ValuesObserver& values_obs;
  ValuesLossFn& values_loss;

  template <template <class, class> class SolverOf>
  AdjointRun run(const IntegratorSettings& cfg, const std::vector<int>& leaves, long segment_steps,
                 int threads) {
    return run_segments<SolverOf<System, Observer>, SolverOf<ValuesSystem, ValuesObserver>>(
        sys, values_sys, cfg, y, ws, values_y, values_ws, obs, loss_of, values_obs, values_loss, leaves,
        segment_steps, threads);
  }
};

template <const Tableau& tab>
struct Adaptive {
  template <class System, class Observer>
  using Of = AdaptiveSolve<tab, double, System, Observer>;
};

template <class P>
AdjointRun run_method(P&& pair, const IntegratorSettings& cfg, const std::vector<int>& leaves,
                      long segment_steps, int threads) {
  switch (cfg.method) {
    case Method::bosh3:
      return pair.template run<Adaptive<kBosh3>::template Of>(cfg, leaves, segment_steps, threads);
    case Method::dopri5:
      return pair.template run<Adaptive<kDopri5>::template Of>(cfg, leaves, segment_steps, threads);
    case Method::tsit5:
      return pair.template run<Adaptive<kTsit5>::template Of>(cfg, leaves, segment_steps, threads);
    case Method::dopri8:
      return pair.template run<Adaptive<kDopri8>::template Of>(cfg, leaves, segment_steps, threads);
    default:
      return pair.template run<FixedSolve>(cfg, leaves, segment_steps, threads);
  }
}

}  // namespace adjoint_detail

// d loss / d leaf for every leaf (tape variables already in pd, on a tape cleared by the caller), with
// step sizes frozen. segment_steps: accepted steps per checkpointed segment, 0 for one segment (the whole
// run taped at once). loss_of(sys, y, obs) gives the loss at the final state. threads > 1: segments are
// recorded on that many threads (engine/gradient/parallel_replay.hpp; the same gradient to the last bit);
// not inside a sweep, whose points already use the cores. Leaves the tape holding only the nodes made
// before the call and the system's constants.
template <class Observer, class LossFn, class ValuesObserver, class ValuesLossFn>
AdjointRun checkpointed_adjoint(const ProblemData<Rev>& pd, ValuesTwin<ValuesObserver, ValuesLossFn> twin,
                                const IntegratorSettings& cfg, SimWorkspace<Rev>& ws, Observer& obs,
                                LossFn loss_of, const std::vector<int>& leaves, long segment_steps,
                                int threads = 1) {
  using adjoint_detail::Pair;
  SimWorkspace<double>& vws = *twin.ws;
  if (runs_as_tree(pd)) {
    if (!ws.tree) ws.tree = std::make_unique<RkWorkspace<TreeSystem<Rev>>>();
    if (!vws.tree) vws.tree = std::make_unique<RkWorkspace<TreeSystem<double>>>();
    // Free bodies run as a tree (model.run_as tree): their trees are built here, the Rev one on the tape.
    TreeSystem<Rev>& sys = tree_system_for_run(ws.tree_system, tree_model_for_run(pd, ws), cfg.fixed_step());
    TreeSystem<double>& values_sys =
        tree_system_for_run(vws.tree_system, tree_model_for_run(*twin.pd, vws), cfg.fixed_step());
    return adjoint_detail::run_method(
        Pair<TreeSystem<Rev>, TreeSystem<double>, Observer, LossFn, ValuesObserver, ValuesLossFn>{
            sys, values_sys, ws.y, *ws.tree, vws.y, *vws.tree, obs, loss_of, *twin.obs, twin.loss_of},
        cfg, leaves, segment_steps, threads);
  }
  if (pd.type == ModelType::rigid) {
    if (!ws.rigid) ws.rigid = std::make_unique<RkWorkspace<RigidSystem<Rev>>>();
    if (!vws.rigid) vws.rigid = std::make_unique<RkWorkspace<RigidSystem<double>>>();
    auto sys = std::make_unique<RigidSystem<Rev>>(&pd.rigid, cfg.fixed_step());
    auto values_sys = std::make_unique<RigidSystem<double>>(&twin.pd->rigid, cfg.fixed_step());
    return adjoint_detail::run_method(
        Pair<RigidSystem<Rev>, RigidSystem<double>, Observer, LossFn, ValuesObserver, ValuesLossFn>{
            *sys, *values_sys, ws.y, *ws.rigid, vws.y, *vws.rigid, obs, loss_of, *twin.obs, twin.loss_of},
        cfg, leaves, segment_steps, threads);
  }
  if (!ws.particles) ws.particles = std::make_unique<RkWorkspace<ParticleSystem<Rev>>>();
  if (!vws.particles) vws.particles = std::make_unique<RkWorkspace<ParticleSystem<double>>>();
  const ParticleSystem<Rev> sys{&pd.model, cfg.fixed_step()};
  const ParticleSystem<double> values_sys{&twin.pd->model, cfg.fixed_step()};
  return adjoint_detail::run_method(
      Pair<ParticleSystem<Rev>, ParticleSystem<double>, Observer, LossFn, ValuesObserver, ValuesLossFn>{
          sys, values_sys, ws.y, *ws.particles, vws.y, *vws.particles, obs, loss_of, *twin.obs, twin.loss_of},
      cfg, leaves, segment_steps, threads);
}

}  // namespace sg
