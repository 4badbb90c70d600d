// Labels for pinned sweeps: what differs between two scenes, in a reader's words.
#include <doctest/doctest.h>

#include "engine/scene/config_diff.hpp"

using nlohmann::json;
using sg::scene::describe_differences;
using sg::scene::difference_label;

namespace {

json scene(double kappa, bool cfd, std::vector<double> solref) {
  return {{"name", "falling_mass"},
          {"description", "changes with every edit and is no setting"},
          {"contact", {{"hard", {{"kappa", kappa}}}, {"cfd", {{"enabled", cfd}}}}},
          {"model", {{"bodies", json::array({{{"solref", solref}}})}}},
          {"integrator", {{"rtol", 1e-6}, {"method", "tsit5"}}}};
}

}  // namespace

TEST_CASE("differences read as names and the first scene's values") {
  json a = scene(300, false, {0.01, 1});
  json b = scene(1e4, true, {0.02, 1});
  b["description"] = "something else";
  const auto items = describe_differences(a, b);
  REQUIRE(items.size() == 3);
  CHECK(items[0] == "CFD off");  // keys in order: contact.cfd before contact.hard
  CHECK(items[1] == "kappa (hard contact) 300");
  CHECK(items[2] == "body 0 solref [0.01, 1]");
  CHECK(difference_label(a, b) == "CFD off, kappa (hard contact) 300, body 0 solref [0.01, 1]");
  CHECK(difference_label(a, b, 1) == "CFD off, +2 more");
}

TEST_CASE("identical settings, integer-valued doubles and a missing key") {
  json a = scene(300, false, {0.01, 1});
  json b = a;
  CHECK(difference_label(a, b) == "same settings");
  b["contact"]["hard"]["kappa"] = 300.0;  // 300 vs 300.0
  CHECK(describe_differences(a, b).empty());
  b["integrator"].erase("method");
  CHECK(describe_differences(a, b) == std::vector<std::string>{"method tsit5"});
  b = a;
  b["name"] = "toy";
  CHECK(difference_label(a, b) == "scene falling_mass");
}
