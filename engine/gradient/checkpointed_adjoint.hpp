#pragma once
// Reverse mode with bounded memory: the discrete adjoint of a whole run, recomputed segment by segment from
// checkpoints instead of taping the run at once (Diffrax's RecursiveCheckpointAdjoint keeps a bounded number
// of states in the same spirit; here the checkpoints are uniform).
//
// 1. Forward pass with the tape off (engine/core/reverse.hpp): the same Rev arithmetic, values only, so the
//    run is bit for bit the one a taped run or a double run takes. Every `segment_steps` accepted steps a
//    checkpoint keeps what the solve carries from one step to the next: the state y, f(y) (the FSAL stage),
//    the solver's counters and controller, the system's mode and the observer's running sum.
// 2. Backward, last segment first: restore the checkpoint, make y (and the observer's sum) fresh tape
//    variables, re-attach f(y)'s derivative (the stored value, with the derivative of f evaluated at the
//    restored y: in exact arithmetic the FSAL stage is f(y)), run the segment on the tape, seed its end state
//    with the adjoint the later segment left on its start variables, sweep, and truncate the tape.
// 3. The nodes before the first segment (parameters, the system's per-run constants, the initial state) keep
//    their adjoints across segments; one sweep over them at the end gives d loss / d parameter.
//
// Memory: one segment's tape plus the checkpoints (a few kB each), whatever the length of the run. Cost: a
// values-only run, the taped replay, and one extra f(y) per segment.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/core/reverse.hpp"
#include "engine/simulate/run.hpp"

namespace sg {

struct AdjointRun {
  SolveStats stats;
  double loss = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> grad;  // d loss / d leaf, per leaf (NaN unless stats.status == ok)
  long segments = 0;
  long peak_nodes = 0;               // the largest tape: the constants plus one segment
  std::size_t checkpoint_bytes = 0;  // what the checkpoints hold
  std::size_t peak_bytes() const {   // the tape's nodes and adjoints, and the checkpoints
    return static_cast<std::size_t>(peak_nodes) * (sizeof(RevNode) + sizeof(double)) + checkpoint_bytes;
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
Checkpoint<Solver, System> save(const Solver& solver, const System& sys, const Rev* y,
                                const RkWorkspace<System>& ws, Observer& obs) {
  const int n = sys.dim();
  Checkpoint<Solver, System> c{solver.save(), sys.memo(), std::vector<double>(n), {}, 0.0};
  for (int i = 0; i < n; ++i) c.y[i] = y[i].v;
  if constexpr (Solver::kCarriesDerivative) {
    c.k0.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) c.k0[i] = ws.k[0][i].v;
  }
  if constexpr (kCarries<Observer>) c.carried = obs.carried().v;
  return c;
}

// Puts the solve back at a checkpoint with y (then the observer's sum) as fresh tape variables; returns the
// first one's node.
template <class Solver, class System, class Observer>
int resume(const Checkpoint<Solver, System>& c, Solver& solver, const System& sys, Rev* y,
           RkWorkspace<System>& ws, Observer& obs) {
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

template <class Solver, class System, class Observer>
std::size_t bytes_of(const std::vector<Checkpoint<Solver, System>>& marks) {
  std::size_t b = marks.capacity() * sizeof(Checkpoint<Solver, System>);
  for (const auto& m : marks) b += (m.y.capacity() + m.k0.capacity()) * sizeof(double);
  return b;
}

// The run and its adjoint with one solver type. The tape holds the leaves and the system's constants.
template <class Solver, class System, class Observer, class LossFn>
AdjointRun run_segments(const System& sys, const IntegratorSettings& cfg, Rev* y, RkWorkspace<System>& ws,
                        Observer& obs, LossFn& loss_of, const std::vector<int>& leaves, long segment_steps) {
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

  std::vector<Checkpoint<Solver, System>> marks;
  tape.set_recording(false);
  {
    Solver solver(sys, cfg, y, ws, obs);
    solver.start();
    for (long limit = every;; limit += every) {
      out.stats = solver.advance(limit);
      if (solver.finished()) break;
      marks.push_back(save(solver, sys, y, ws, obs));
    }
    if (out.stats.status == Status::ok) out.loss = value(loss_of(sys, y, obs));
  }
  tape.set_recording(true);
  out.checkpoint_bytes = bytes_of<Solver, System, Observer>(marks);
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
    tape.truncate(prefix);
    adj.resize(static_cast<std::size_t>(prefix));
  }
  sweep_nodes(tape, adj, prefix - 1, 1);
  for (std::size_t j = 0; j < leaves.size(); ++j) out.grad[j] = adj[static_cast<std::size_t>(leaves[j])];
  out.segments = segments;
  return out;
}

template <class System, class Observer, class LossFn>
AdjointRun run_method(const System& sys, const IntegratorSettings& cfg, Rev* y, RkWorkspace<System>& ws,
                      Observer& obs, LossFn& loss_of, const std::vector<int>& leaves, long segment_steps) {
  switch (cfg.method) {
    case Method::bosh3:
      return run_segments<AdaptiveSolve<kBosh3, double, System, Observer>>(sys, cfg, y, ws, obs, loss_of,
                                                                           leaves, segment_steps);
    case Method::dopri5:
      return run_segments<AdaptiveSolve<kDopri5, double, System, Observer>>(sys, cfg, y, ws, obs, loss_of,
                                                                            leaves, segment_steps);
    case Method::tsit5:
      return run_segments<AdaptiveSolve<kTsit5, double, System, Observer>>(sys, cfg, y, ws, obs, loss_of,
                                                                           leaves, segment_steps);
    default:
      return run_segments<FixedSolve<System, Observer>>(sys, cfg, y, ws, obs, loss_of, leaves, segment_steps);
  }
}

}  // namespace adjoint_detail

// d loss / d leaf for every leaf (tape variables already in pd, on a tape cleared by the caller), with
// step sizes frozen. segment_steps: accepted steps per checkpointed segment, 0 for one segment (the whole
// run taped at once). loss_of(sys, y, obs) gives the loss at the final state. Leaves the tape holding only
// the nodes made before the call and the system's constants.
template <class Observer, class LossFn>
AdjointRun checkpointed_adjoint(const ProblemData<Rev>& pd, const IntegratorSettings& cfg,
                                SimWorkspace<Rev>& ws, Observer& obs, LossFn loss_of,
                                const std::vector<int>& leaves, long segment_steps) {
  if (pd.type == ModelType::rigid) {
    if (!ws.rigid) ws.rigid = std::make_unique<RkWorkspace<RigidSystem<Rev>>>();
    auto sys = std::make_unique<RigidSystem<Rev>>(&pd.rigid, cfg.fixed_step());
    return adjoint_detail::run_method(*sys, cfg, ws.y, *ws.rigid, obs, loss_of, leaves, segment_steps);
  }
  if (!ws.particles) ws.particles = std::make_unique<RkWorkspace<ParticleSystem<Rev>>>();
  const ParticleSystem<Rev> sys{&pd.model, cfg.fixed_step()};
  return adjoint_detail::run_method(sys, cfg, ws.y, *ws.particles, obs, loss_of, leaves, segment_steps);
}

}  // namespace sg
