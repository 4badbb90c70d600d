// The order a sweep computes its points in (engine/sweep/point_order.hpp): every point once, and any prefix
// spread over the whole range, so a sweep drawn while it runs shows the whole curve at a coarser spacing.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/sweep/point_order.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// The largest distance between neighbouring indices among the first m of order.
long largest_gap(const std::vector<long>& order, long m) {
  std::vector<long> done(order.begin(), order.begin() + m);
  std::sort(done.begin(), done.end());
  long gap = 0;
  for (std::size_t k = 1; k < done.size(); ++k) gap = std::max(gap, done[k] - done[k - 1]);
  return gap;
}

}  // namespace

TEST_CASE("a sweep's point order is a permutation that starts with both ends") {
  for (long n : {0L, 1L, 2L, 3L, 7L, 200L, 1000L, 2000L}) {
    CAPTURE(n);
    const std::vector<long> order = coarse_to_fine(n);
    REQUIRE(static_cast<long>(order.size()) == n);
    std::vector<long> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (long i = 0; i < n; ++i) CHECK(sorted[static_cast<std::size_t>(i)] == i);
    if (n >= 2) {
      CHECK(order[0] == 0);
      CHECK(order[1] == n - 1);
    }
  }
}

TEST_CASE("any prefix of a sweep's point order spans the range") {
  // After a tenth of the points no gap is wider than a twelfth of the range; after half of them, 3 indices.
  for (long n : {200L, 2000L}) {
    CAPTURE(n);
    const std::vector<long> order = coarse_to_fine(n);
    CHECK(largest_gap(order, n / 10) <= n / 12);
    CHECK(largest_gap(order, n / 2) <= 3);
    CHECK(largest_gap(order, n) == 1);
  }
}

TEST_CASE("a cancelled sweep has computed points spread over the range") {
  // One worker, cancelled from the progress callback after 10 of 200 points: those 10 span the range.
  const Problem p = test::shipped("toy_point_mass.json", {"sweep.points=200"});
  std::atomic<bool> cancel{false};
  long done = 0;
  SweepControl control;
  control.threads = 1;
  control.cancel = &cancel;
  control.on_point = [&](long, const PointResult&) {
    if (++done == 10) cancel = true;
  };
  const SweepResult r = run_sweep(p, control);
  std::vector<long> computed;
  for (long i = 0; i < 200; ++i)
    if (r.points[static_cast<std::size_t>(i)].status != "cancelled") computed.push_back(i);
  REQUIRE(computed.size() == 10);
  CHECK(computed.front() == 0);
  CHECK(computed.back() == 199);
  for (std::size_t k = 1; k < computed.size(); ++k) CHECK(computed[k] - computed[k - 1] <= 64);
  CHECK(r.stats.cancelled);
}
