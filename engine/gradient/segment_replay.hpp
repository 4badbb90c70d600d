#pragma once
// The pieces of a checkpointed adjoint (engine/gradient/checkpointed_adjoint.hpp): the checkpoints a
// values-only run leaves, and the replay of one segment on the calling thread's tape and its sweep. Shared
// by the one-thread replay and the threaded one (engine/gradient/parallel_replay.hpp).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "engine/core/reverse.hpp"
#include "engine/simulate/run.hpp"

namespace sg::adjoint_detail {

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
// rejected: per segment, which of its attempts were rejected (AdaptiveSolve::log_attempts; 0 for solvers
// without rejections), for the replay to record them paused.
template <class Solver, class System, class Observer, class LossFn, class Mark>
double values_pass(const System& sys, const IntegratorSettings& cfg, double* y, RkWorkspace<System>& ws,
                   Observer& obs, LossFn& loss_of, long every, std::vector<Mark>& marks,
                   std::vector<std::uint64_t>& rejected, SolveStats* stats) {
  if constexpr (requires { obs.bind(sys); }) obs.bind(sys);
  sys.initial_state(y);
  Solver solver(sys, cfg, y, ws, obs);
  solver.start();
  constexpr bool kLogs = requires {
    solver.log_attempts();
  };
  for (long limit = every;; limit += every) {
    if constexpr (kLogs) solver.log_attempts();
    *stats = solver.advance(limit);
    if constexpr (kLogs)
      rejected.push_back(solver.rejected_attempts());
    else
      rejected.push_back(0);
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

// What every segment's replay reads and nothing writes while it runs: the checkpoints, the start of the
// run (state, mode, observer), the values pass's loss, and the tape's prefix (the leaves and the system's
// constants).
template <class Mark, class System, class Observer>
struct ReplayPlan {
  const std::vector<Mark>& marks;
  const std::vector<std::uint64_t>& rejected;  // per segment (values_pass)
  const std::vector<Rev>& y0;
  const typename System::Memo& memo0;
  const Observer& obs0;
  const IntegratorSettings& cfg;
  long every = 0, segments = 0;
  int prefix = 0;
  double loss = 0.0;
};

// One thread's replay: its system, state, workspace and observer, and the adjoints of its tape's nodes.
template <class System, class Observer>
struct ReplayLane {
  const System* sys;
  Rev* y;
  RkWorkspace<System>* ws;
  Observer* obs;
  std::vector<double> adj;
  long peak_nodes = 0, peak_links = 0;
};

// The adjoints a segment's sweep hands to the one before it (of its start state and observer sum), and the
// prefix's adjoints summed over the segments swept so far.
struct SegmentSeed {
  std::vector<double> a_y;
  double a_carried = 0.0;
  std::vector<double> prefix_adj;
};

struct RecordedSegment {
  int first = 0;  // node of the segment's first state variable (0 for the run's first segment)
  Rev loss = 0.0;
};

// Replays segment s on the calling thread's tape, from its checkpoint (or the start of the run).
template <class Solver, class Plan, class Lane, class LossFn>
RecordedSegment record_segment(const Plan& p, long s, Lane& lane, LossFn& loss_of) {
  const auto& sys = *lane.sys;
  auto& obs = *lane.obs;
  Solver solver(sys, p.cfg, lane.y, *lane.ws, obs);
  RecordedSegment r;
  if (s == 0) {
    for (std::size_t i = 0; i < p.y0.size(); ++i) lane.y[i] = p.y0[i];
    sys.restore(p.memo0);
    obs = p.obs0;
    if constexpr (requires { obs.bind(sys); }) obs.bind(sys);
    solver.start();
  } else {
    r.first = resume(p.marks[static_cast<std::size_t>(s - 1)], solver, sys, lane.y, *lane.ws, obs);
  }
  if constexpr (requires { solver.replay_attempts(std::uint64_t{0}); })
    solver.replay_attempts(p.rejected[static_cast<std::size_t>(s)]);
  const bool last = s == p.segments - 1;
  solver.advance(last ? Solver::kNoLimit : (s + 1) * p.every);
  if (last) r.loss = loss_of(sys, lane.y, obs);
  return r;
}

// Seeds segment s's end (with the loss, or the adjoints the later segment left in seed) and sweeps it on the
// calling thread's tape with the prefix's adjoints so far; seed then holds what the segment before needs,
// and the tape is back at the prefix. False (nothing swept) when the last segment's replay ended elsewhere
// than the values pass: another trajectory's adjoint would follow.
template <class Plan, class Lane>
bool sweep_segment(const Plan& p, long s, const RecordedSegment& r, Lane& lane, SegmentSeed& seed) {
  RevTape& tape = RevTape::current();
  const int n = lane.sys->dim();
  const bool last = s == p.segments - 1;
  if (last && r.loss.v != p.loss) {
    tape.truncate(p.prefix);
    return false;
  }
  auto& adj = lane.adj;
  adj.assign(static_cast<std::size_t>(tape.size()), 0.0);
  std::copy(seed.prefix_adj.begin(), seed.prefix_adj.end(), adj.begin());
  if (last) {
    adj[static_cast<std::size_t>(std::max(r.loss.i, 0))] += 1.0;
  } else {
    for (int i = 0; i < n; ++i) adj[static_cast<std::size_t>(std::max(lane.y[i].i, 0))] += seed.a_y[i];
    if constexpr (kCarries<std::remove_reference_t<decltype(*lane.obs)>>)
      adj[static_cast<std::size_t>(std::max(lane.obs->carried().i, 0))] += seed.a_carried;
  }
  sweep_nodes(tape, adj, tape.size() - 1, p.prefix);
  if (s > 0) {
    for (int i = 0; i < n; ++i) seed.a_y[i] = adj[static_cast<std::size_t>(r.first + i)];
    if constexpr (kCarries<std::remove_reference_t<decltype(*lane.obs)>>)
      seed.a_carried = adj[static_cast<std::size_t>(r.first + n)];
  }
  std::copy(adj.begin(), adj.begin() + p.prefix, seed.prefix_adj.begin());
  lane.peak_nodes = std::max<long>(lane.peak_nodes, tape.size());
  lane.peak_links = std::max<long>(lane.peak_links, tape.link_count());
  tape.truncate(p.prefix);
  return true;
}

}  // namespace sg::adjoint_detail
