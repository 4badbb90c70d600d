#pragma once
// A worker's shared state handed to the UI thread: copied only when its version changed, with the elapsed
// time of a running job refreshed on every call (the clock moves even when nothing else does). The caller
// holds the worker's mutex.
#include <chrono>

#include "gui/workers/sweep_worker.hpp"

namespace sg::gui {

template <class Snapshot>
bool copy_timed_snapshot(const Snapshot& shared, std::chrono::steady_clock::time_point started,
                         Snapshot* out) {
  const double elapsed =
      shared.phase == SweepPhase::running
          ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
          : shared.elapsed_seconds;
  out->elapsed_seconds = elapsed;
  if (out->version == shared.version) return false;
  *out = shared;
  out->elapsed_seconds = elapsed;
  return true;
}

}  // namespace sg::gui
