// The sweep history: records kept once per problem, at most four pins in distinct colours, oldest records
// dropped first, labels relative to the live settings.
#include <doctest/doctest.h>

#include <memory>

#include "gui/document/sweep_history.hpp"

using sg::gui::SweepHistory;

namespace {

std::shared_ptr<const sg::Problem> problem_with(double k) {
  auto p = std::make_shared<sg::Problem>();
  p->config = {{"contact", {{"penalty", {{"k", k}}}}}};
  return p;
}

sg::plot::Figure figure() {
  sg::plot::Figure f;
  for (int i = 0; i < 3; ++i) {
    sg::plot::Plot p;
    for (const char* name : {"AD", "FD", "extra"}) {
      sg::plot::Series s;
      s.name = name;
      s.x = {0, 1};
      s.y = {1, 2};
      p.series.push_back(s);
    }
    f.plots.push_back(p);
  }
  return f;
}

bool same(sg::plot::Color a, sg::plot::Color b) {
  return a.r == b.r && a.g == b.g && a.b == b.b;
}

}  // namespace

TEST_CASE("sweep history: one record per problem, labels follow the live settings") {
  SweepHistory h;
  h.set_live_config(problem_with(100)->config);
  const auto a = problem_with(300);
  CHECK(h.record(a, figure()) == 0);
  CHECK(h.record(a, figure()) == 0);  // the same sweep again (a refreshed figure)
  REQUIRE(h.records().size() == 1);
  CHECK(h.records()[0].label == "stiffness k (penalty contact) 300");
  h.set_live_config(a->config);
  CHECK(h.records()[0].label == "same settings");
  // The same settings in another problem (a knob moved and back) are the same sweep: still one record, for
  // the newest problem, so the Pins popup lists it once.
  const auto again = problem_with(300);
  CHECK(h.record(again, figure()) == 0);
  REQUIRE(h.records().size() == 1);
  CHECK(h.records()[0].problem == again);
  CHECK(h.record(problem_with(200), figure()) == 1);
}

TEST_CASE("sweep history: pins get distinct colours, the fifth pin unpins the oldest") {
  SweepHistory h;
  h.set_live_config(problem_with(0)->config);
  for (int k = 1; k <= 5; ++k) h.set_pinned(h.record(problem_with(k), figure()), true);
  CHECK(h.pin_count() == SweepHistory::kMaxPins);
  CHECK_FALSE(h.records()[0].pinned);
  for (std::size_t i = 1; i < 5; ++i)
    for (std::size_t j = i + 1; j < 5; ++j) CHECK_FALSE(same(h.records()[i].color, h.records()[j].color));
  // Gradient plot: AD and FD of each pin, grouped by pin, in the pin's colour; other plots: the first series.
  const auto grad = h.pinned_series(1, false);
  REQUIRE(grad.size() == 8);
  CHECK(grad[0].group == grad[1].group);
  CHECK(grad[0].group != grad[2].group);
  CHECK(same(grad[0].color, h.records()[1].color));
  CHECK(grad[0].faded);
  CHECK(h.pinned_series(0, true).size() == 4);
  h.unpin_all();
  CHECK(h.pinned_series(1, false).empty());
}

TEST_CASE("sweep history: the oldest unpinned record goes first") {
  SweepHistory h;
  h.set_pinned(h.record(problem_with(0), figure()), true);
  for (int k = 1; k <= 10; ++k) h.record(problem_with(k), figure());
  REQUIRE(h.records().size() == SweepHistory::kMaxRecords);
  CHECK(h.records()[0].pinned);  // kept although oldest
  CHECK(h.records()[1].problem->config["contact"]["penalty"]["k"] == 4);
  CHECK(h.pinned_series(0, false).size() == 1);
}
