#pragma once
// A checkpointed adjoint's replay on several threads. Recording a segment needs only its checkpoint, so
// the threads record segments side by side, each on its own tape (a copy of the prefix: the leaves and the
// system's constants, at the same node indices); the sweeps still go one at a time, last segment first,
// each seeded by the one after it. A thread takes the next segment down, records it, waits for its turn,
// sweeps, hands the seed on and takes the next. The threads besides the caller are kept between gradients
// (engine/gradient/helper_threads.hpp). The prefix's adjoints are summed in the same order as
// by one thread, so the gradient is the same to the last bit whatever the number of threads
// (tests/engine/test_parallel_replay.cpp). Memory: one segment's tape per thread.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/gradient/helper_threads.hpp"
#include "engine/gradient/segment_replay.hpp"
#include "engine/model/particle_system.hpp"
#include "engine/model/rigid_system.hpp"
#include "engine/model/tree_system.hpp"

namespace sg::adjoint_detail {

template <class S>
std::unique_ptr<RigidSystem<S>> replica_of(const RigidSystem<S>& sys) {
  return std::make_unique<RigidSystem<S>>(sys, typename RigidSystem<S>::Replica{});
}
// The model and step only: the caller's thread changes the mode while this one is made.
template <class S>
std::unique_ptr<ParticleSystem<S>> replica_of(const ParticleSystem<S>& sys) {
  return std::make_unique<ParticleSystem<S>>(ParticleSystem<S>{sys.model, sys.timestep});
}

// The same model (its tape leaves included) and refsafe's step; the run's tree, scratch and mode are the
// replica's own (a segment's checkpoint restores the mode).
template <class S>
std::unique_ptr<TreeSystem<S>> replica_of(const TreeSystem<S>& sys) {
  return std::make_unique<TreeSystem<S>>(&sys.model(), sys.timestep());
}

// Whose turn it is to sweep, and the seed the sweeps hand down.
struct SweepTurn {
  std::mutex m;
  std::condition_variable cv;
  long turn = 0;        // the segment to sweep next
  bool failed = false;  // a replay ended elsewhere than the values pass, or a thread could not run
  SegmentSeed seed;
};

// Takes segments (the highest left first) until none is left: records each on this thread's tape, then
// sweeps it when its turn comes. Every segment taken is swept or the replay marked failed, so no thread
// waits forever.
template <class Solver, class Plan, class Lane, class LossFn>
void replay_taken_segments(const Plan& p, Lane& lane, LossFn& loss_of, std::atomic<long>& next,
                           SweepTurn& t) {
  for (;;) {
    const long s = next.fetch_sub(1);
    if (s < 0) return;
    bool ok = false;
    try {
      const RecordedSegment r = record_segment<Solver>(p, s, lane, loss_of);
      std::unique_lock<std::mutex> lock(t.m);
      t.cv.wait(lock, [&] { return t.turn == s || t.failed; });
      ok = !t.failed && sweep_segment(p, s, r, lane, t.seed);
      if (ok) t.turn = s - 1;
    } catch (...) {  // the tape could not grow: the gradient fails, the other threads stop
    }
    if (!ok) {
      RevTape::current().truncate(p.prefix);
      std::lock_guard<std::mutex> lock(t.m);
      t.failed = true;
    }
    t.cv.notify_all();
    if (!ok) return;
  }
}

// One replay thread besides the caller: its tape starts as the prefix, its system is a replica of the
// caller's. Does nothing if it cannot set up (its share falls to the others). The tape is truncated to
// the prefix when it is done, but keeps its memory for the next gradient.
template <class Solver, class Plan, class System, class Observer, class LossFn>
void replay_worker(const Plan& p, const RevTape::Prefix& prefix, const System& sys, LossFn& loss_of,
                   std::atomic<long>& next, SweepTurn& t, long* peak_nodes, long* peak_links) {
  std::unique_ptr<System> own;
  std::unique_ptr<RkWorkspace<System>> ws;
  std::vector<Rev> y;
  try {
    RevTape::current().load(prefix);
    own = replica_of(sys);
    ws = std::make_unique<RkWorkspace<System>>();
    y.resize(System::kMaxDim);
  } catch (...) {
    return;
  }
  Observer obs = p.obs0;
  if constexpr (requires { obs.bind(*own); }) obs.bind(*own);
  ReplayLane<System, Observer> lane{own.get(), y.data(), ws.get(), &obs, {}};
  replay_taken_segments<Solver>(p, lane, loss_of, next, t);
  *peak_nodes = lane.peak_nodes;
  *peak_links = lane.peak_links;
}

// All segments swept (true) or the replay refused (false); seed.prefix_adj then holds the prefix's
// adjoints. The caller's lane records and sweeps too. peak_nodes/links: summed over the threads' tapes.
template <class Solver, class Plan, class System, class Observer, class LossFn>
bool replay_in_parallel(const Plan& p, ReplayLane<System, Observer>& lane, LossFn& loss_of, int threads,
                        SegmentSeed& seed, long* peak_nodes, long* peak_links) {
  const RevTape::Prefix prefix = RevTape::current().prefix(p.prefix);
  const int helpers = static_cast<int>(std::min<long>(threads, p.segments)) - 1;
  std::atomic<long> next{p.segments - 1};
  SweepTurn t;
  t.turn = p.segments - 1;
  t.seed = std::move(seed);
  std::vector<long> nodes(static_cast<std::size_t>(helpers), 0), links(static_cast<std::size_t>(helpers), 0);
  run_beside_helpers(
      helpers,
      [&](int h) {
        replay_worker<Solver, Plan, System, Observer>(p, prefix, *lane.sys, loss_of, next, t,
                                                      &nodes[static_cast<std::size_t>(h)],
                                                      &links[static_cast<std::size_t>(h)]);
      },
      [&] { replay_taken_segments<Solver>(p, lane, loss_of, next, t); });
  seed = std::move(t.seed);
  *peak_nodes = lane.peak_nodes;
  *peak_links = lane.peak_links;
  for (int h = 0; h < helpers; ++h) {
    *peak_nodes += nodes[static_cast<std::size_t>(h)];
    *peak_links += links[static_cast<std::size_t>(h)];
  }
  return !t.failed;
}

}  // namespace sg::adjoint_detail
