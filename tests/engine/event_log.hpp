#pragma once
// An observer that records the time and id of every contact event of a run (and ignores everything else).
#include <vector>

#include "engine/integrate/events.hpp"

namespace sg::test {

struct EventLog {
  std::vector<double> times;
  std::vector<EventId> ids;
  template <class S>
  void on_output(long, double, const S*, int) {}
  void on_accept(double) {}
  void on_reject(double) {}
  void on_event(double t, const EventId& id) {
    times.push_back(t);
    ids.push_back(id);
  }
};

}  // namespace sg::test
