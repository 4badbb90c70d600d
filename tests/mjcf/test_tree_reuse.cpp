// A sweep keeps one TreeSystem per worker and resets it for each run (engine/simulate/run.hpp): a reset
// system must give exactly the numbers of a new one, whatever ran in it before (another scene, limits or
// none, contacts or none, another scalar's seeds), so that a sweep's points do not depend on their order.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/core/dual.hpp"
#include "engine/problem/problem.hpp"
#include "engine/simulate/run.hpp"
#include "mjcf/import.hpp"
#include "tests/engine/scene_helpers.hpp"

namespace {

struct Case {
  std::string scene;
  std::vector<std::string> sets;
};

// Short runs that exercise a tree's parts: contacts with events and a frozen mode (the box toss as a tree),
// joint limits (the crane's end stop), no constraints at all (the double pendulum).
std::vector<Case> cases() {
  return {{"toss_box_diffmjx.json", {"model.run_as=tree"}},
          {"crane_end_stop.json", {}},
          {"double_pendulum.json", {}},
          {"toss_sphere_mjx.json", {"model.run_as=tree"}}};
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The run's loss (with its first derivative for duals, seeded in the swept number) and its step counts.
template <class S>
std::vector<double> run_numbers(const sg::Problem& p, sg::SimWorkspace<S>& ws) {
  auto pd = std::make_unique<sg::ProblemData<S>>(sg::convert_problem<S>(p.data));
  S* swept = sg::parameter_slot(*pd, p.sweep.parameter);
  REQUIRE(swept != nullptr);
  if constexpr (!std::is_same_v<S, double>) *swept = sg::seeded<S>(sg::value(*swept), 0);
  sg::NullObserver obs;
  const sg::RunOutput<S> out = sg::run_simulation(*pd, p.integrator, ws, obs);
  REQUIRE(out.stats.status == sg::Status::ok);
  std::vector<double> v = {sg::value(out.loss), double(out.stats.accepted), double(out.stats.rejected)};
  if constexpr (!std::is_same_v<S, double>) v.push_back(out.loss.d[0]);
  for (int i = 0; i < ws.tree_system->dim(); ++i) v.push_back(sg::value(ws.y[i]));  // the final state
  return v;
}

template <class S>
void check_reuse() {
  sg::mjcf::register_importer();  // the crane is an MJCF scene
  std::vector<sg::Problem> problems;
  for (const Case& c : cases()) problems.push_back(sg::test::shipped(c.scene, c.sets));
  std::vector<std::vector<double>> fresh;
  for (const sg::Problem& p : problems) {
    auto ws = std::make_unique<sg::SimWorkspace<S>>();
    fresh.push_back(run_numbers(p, *ws));
  }
  auto shared = std::make_unique<sg::SimWorkspace<S>>();
  for (const int i : {0, 1, 2, 3, 0, 2, 1, 3, 0}) {  // every scene after every other kind
    CAPTURE(cases()[i].scene);
    const std::vector<double> again = run_numbers(problems[i], *shared);
    REQUIRE(again.size() == fresh[i].size());
    for (std::size_t k = 0; k < again.size(); ++k) {
      CAPTURE(k);
      CHECK(same_bits(again[k], fresh[i][k]));
    }
  }
}

}  // namespace

TEST_CASE("a reset tree system gives a new one's numbers, bit for bit, whatever ran in it before") {
  SUBCASE("values") {
    check_reuse<double>();
  }
  SUBCASE("forward-mode derivatives") {
    check_reuse<sg::Dual<1>>();
  }
}
