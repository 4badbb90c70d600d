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

// Observers whose running value crosses segments (the trajectory mismatch's sum) expose it as carried().
template <class Observer>
constexpr bool kCarries = requires(Observer& o) {
  o.carried();
};

template <class Solver, class System>
struct Checkpoint {
  typename Solver::Checkpoint solver;
  typename System::Memo system;
  std::vector<double> y, k0;
  double carried = 0.0;
};

template <class Solver, class System, class Observer>
Checkpoint<Solver, System> save(const Solver& solver, const System& sys, const typename System::Scalar* y,
                                const RkWorkspace<System>& ws, Observer& obs) {
  const int n = sys.dim();
  Checkpoint<Solver, System> c{solver.save(), sys.memo(), std::vector<double>(n), {}, 0.0};
  for (int i = 0; i < n; ++i) c.y[i] = value(y[i]);
  if constexpr (Solver::kCarriesDerivative) {
    c.k0.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) c.k0[i] = value(ws.k[0][i]);
  }
  if constexpr (kCarries<Observer>) c.carried = value(obs.carried());
  return c;
}

// The values-only pass: the run in double, a checkpoint every `every` accepted steps; returns the loss (NaN
// unless the run succeeded), the solve's statistics in *stats.
template <class Solver, class System, class Observer, class LossFn, class Mark>
double values_pass(const System& sys, const IntegratorSettings& cfg, double* y, RkWorkspace<System>& ws,
                   Observer& obs, LossFn& loss_of, long every, std::vector<Mark>& marks, SolveStats* stats) {
  if constexpr (requires { obs.bind(sys); }) obs.bind(sys);
  sys.initial_state(y);
  Solver solver(sys, cfg, y, ws, obs);
  solver.start();
  for (long limit = every;; limit += every) {
    *stats = solver.advance(limit);
    if (solver.finished()) break;
    marks.push_back(save(solver, sys, y, ws, obs));
  }
  if (stats->status != Status::ok) return std::numeric_limits<double>::quiet_NaN();
  return value(loss_of(sys, y, obs));
}

// Puts the solve back at a checkpoint with y (then the observer's sum) as fresh tape variables; returns the
// first one's node.
template <class Mark, class Solver, class System, class Observer>
int resume(const Mark& c, Solver& solver, const System& sys, Rev* y, RkWorkspace<System>& ws, Observer& obs) {
  const int n = sys.dim();
  solver.load(c.solver);
  sys.restore(c.system);
  const int first = RevTape::current().size();
  for (int i = 0; i < n; ++i) y[i] = Rev::variable(c.y[i]);
  if constexpr (kCarries<Observer>) obs.carried() = Rev::variable(c.carried);
  if constexpr (Solver::kCarriesDerivative) {
    sys.rhs(y, ws.ytmp);  // in the checkpoint's mode; the evaluation's margins are then restored too
    for (int i = 0; i < n; ++i) ws.k[0][i] = rev_node(c.k0[i], ws.ytmp[i].i, 1.0, 0, 0.0);
    sys.restore(c.system);
  }
  return first;
}

template <class Mark>
std::size_t bytes_of(const std::vector<Mark>& marks) {
  std::size_t b = marks.capacity() * sizeof(Mark);
  for (const auto& m : marks) b += (m.y.capacity() + m.k0.capacity()) * sizeof(double);
  return b;
}

// The run and its adjoint with one solver type (Solver on the tape, ValuesSolver its double twin). The tape
// holds the leaves and the system's constants.
template <class Solver, class ValuesSolver, class System, class ValuesSystem, class Observer, class LossFn,
          class ValuesObserver, class ValuesLossFn>
AdjointRun run_segments(const System& sys, const ValuesSystem& values_sys, const IntegratorSettings& cfg,
                        Rev* y, RkWorkspace<System>& ws, double* values_y,
                        RkWorkspace<ValuesSystem>& values_ws, Observer& obs, LossFn& loss_of,
                        ValuesObserver& values_obs, ValuesLossFn& values_loss, const std::vector<int>& leaves,
                        long segment_steps) {
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
  out.loss = values_pass<ValuesSolver>(values_sys, cfg, values_y, values_ws, values_obs, values_loss, every,
                                       marks, &out.stats);
  out.checkpoint_bytes = bytes_of(marks);
  if (out.stats.status != Status::ok) return out;
  if (!std::isfinite(out.loss)) {
    out.stats.status = Status::nonfinite_loss;
    return out;
  }

  std::vector<double> adj(static_cast<std::size_t>(prefix), 0.0), a_y(static_cast<std::size_t>(n), 0.0);
  double a_carried = 0.0;
  const long segments = static_cast<long>(marks.size()) + 1;
  for (long s = segments - 1; s >= 0; --s) {
    Solver solver(sys, cfg, y, ws, obs);
    int first = 0;
    if (s == 0) {
      for (int i = 0; i < n; ++i) y[i] = y0[static_cast<std::size_t>(i)];
      sys.restore(memo0);
      obs = obs0;
      solver.start();
    } else {
      first = resume(marks[static_cast<std::size_t>(s - 1)], solver, sys, y, ws, obs);
    }
    const bool last = s == segments - 1;
    solver.advance(last ? Solver::kNoLimit : (s + 1) * every);
    Rev loss = last ? loss_of(sys, y, obs) : Rev(0.0);
    // A replay that ended elsewhere than the double run would give another trajectory's adjoint: refused
    // (never on the shipped scenes: tests/engine/test_checkpointed_adjoint.cpp).
    if (last && loss.v != out.loss) {
      out.stats.status = Status::invalid;
      tape.truncate(prefix);
      return out;
    }
    adj.resize(static_cast<std::size_t>(tape.size()), 0.0);
    if (last) {
      adj[static_cast<std::size_t>(std::max(loss.i, 0))] += 1.0;
    } else {
      for (int i = 0; i < n; ++i) adj[static_cast<std::size_t>(std::max(y[i].i, 0))] += a_y[i];
      if constexpr (kCarries<Observer>)
        adj[static_cast<std::size_t>(std::max(obs.carried().i, 0))] += a_carried;
    }
    sweep_nodes(tape, adj, tape.size() - 1, prefix);
    if (s > 0) {
      for (int i = 0; i < n; ++i) a_y[i] = adj[static_cast<std::size_t>(first + i)];
      if constexpr (kCarries<Observer>) a_carried = adj[static_cast<std::size_t>(first + n)];
    }
    out.peak_nodes = std::max<long>(out.peak_nodes, tape.size());
    out.peak_links = std::max<long>(out.peak_links, tape.link_count());
    tape.truncate(prefix);
    adj.resize(static_cast<std::size_t>(prefix));
  }
  sweep_nodes(tape, adj, prefix - 1, 1);
  for (std::size_t j = 0; j < leaves.size(); ++j) out.grad[j] = adj[static_cast<std::size_t>(leaves[j])];
  out.segments = segments;
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
  AdjointRun run(const IntegratorSettings& cfg, const std::vector<int>& leaves, long segment_steps) {
    return run_segments<SolverOf<System, Observer>, SolverOf<ValuesSystem, ValuesObserver>>(
        sys, values_sys, cfg, y, ws, values_y, values_ws, obs, loss_of, values_obs, values_loss, leaves,
        segment_steps);
  }
};

template <const Tableau& tab>
struct Adaptive {
  template <class System, class Observer>
  using Of = AdaptiveSolve<tab, double, System, Observer>;
};

template <class P>
AdjointRun run_method(P&& pair, const IntegratorSettings& cfg, const std::vector<int>& leaves,
                      long segment_steps) {
  switch (cfg.method) {
    case Method::bosh3:
      return pair.template run<Adaptive<kBosh3>::template Of>(cfg, leaves, segment_steps);
    case Method::dopri5:
      return pair.template run<Adaptive<kDopri5>::template Of>(cfg, leaves, segment_steps);
    case Method::tsit5:
      return pair.template run<Adaptive<kTsit5>::template Of>(cfg, leaves, segment_steps);
    default:
      return pair.template run<FixedSolve>(cfg, leaves, segment_steps);
  }
}

}  // namespace adjoint_detail

// d loss / d leaf for every leaf (tape variables already in pd, on a tape cleared by the caller), with
// step sizes frozen. segment_steps: accepted steps per checkpointed segment, 0 for one segment (the whole
// run taped at once). loss_of(sys, y, obs) gives the loss at the final state. Leaves the tape holding only
// the nodes made before the call and the system's constants.
template <class Observer, class LossFn, class ValuesObserver, class ValuesLossFn>
AdjointRun checkpointed_adjoint(const ProblemData<Rev>& pd, ValuesTwin<ValuesObserver, ValuesLossFn> twin,
                                const IntegratorSettings& cfg, SimWorkspace<Rev>& ws, Observer& obs,
                                LossFn loss_of, const std::vector<int>& leaves, long segment_steps) {
  using adjoint_detail::Pair;
  SimWorkspace<double>& vws = *twin.ws;
  if (pd.type == ModelType::rigid) {
    if (!ws.rigid) ws.rigid = std::make_unique<RkWorkspace<RigidSystem<Rev>>>();
    if (!vws.rigid) vws.rigid = std::make_unique<RkWorkspace<RigidSystem<double>>>();
    auto sys = std::make_unique<RigidSystem<Rev>>(&pd.rigid, cfg.fixed_step());
    auto values_sys = std::make_unique<RigidSystem<double>>(&twin.pd->rigid, cfg.fixed_step());
    return adjoint_detail::run_method(
        Pair<RigidSystem<Rev>, RigidSystem<double>, Observer, LossFn, ValuesObserver, ValuesLossFn>{
            *sys, *values_sys, ws.y, *ws.rigid, vws.y, *vws.rigid, obs, loss_of, *twin.obs, twin.loss_of},
        cfg, leaves, segment_steps);
  }
  if (!ws.particles) ws.particles = std::make_unique<RkWorkspace<ParticleSystem<Rev>>>();
  if (!vws.particles) vws.particles = std::make_unique<RkWorkspace<ParticleSystem<double>>>();
  const ParticleSystem<Rev> sys{&pd.model, cfg.fixed_step()};
  const ParticleSystem<double> values_sys{&twin.pd->model, cfg.fixed_step()};
  return adjoint_detail::run_method(
      Pair<ParticleSystem<Rev>, ParticleSystem<double>, Observer, LossFn, ValuesObserver, ValuesLossFn>{
          sys, values_sys, ws.y, *ws.particles, vws.y, *vws.particles, obs, loss_of, *twin.obs, twin.loss_of},
      cfg, leaves, segment_steps);
}

}  // namespace sg
