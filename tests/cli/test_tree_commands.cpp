// The joint-tree scene (model.type "tree") from the command line: simulate, sweep and gradient exit 0 with
// finite numbers; a malformed tree is exit 2 naming its key path.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

using sg::test::read_json;
using sg::test::run_softgrad;
using sg::test::scene;

TEST_CASE("simulate runs the pendulum chain and records every body's pose") {
  const std::string out = sg::test::binary_dir() + "/tree_simulate.json";
  const auto r = run_softgrad("simulate " + scene("pendulum_chain.json") + " --value 0.9 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  CHECK(j["layout"] == "tree");
  CHECK(j["status"] == "ok");
  REQUIRE(j["q"].size() == 201);
  CHECK(j["q"][0].size() == 4 * 7);  // pos and quat of each of the 4 bodies
  CHECK(j["v"][0].size() == 4 * 6);
  // At rest at the start, the tip hangs 0.9 m from the shoulder (1.5 m up), turned by 0.9 rad about +y:
  // towards -x.
  CHECK(j["q"][0][3 * 7 + 0].get<double>() == doctest::Approx(-0.9 * std::sin(0.9)).epsilon(1e-12));
  CHECK(j["q"][0][3 * 7 + 2].get<double>() == doctest::Approx(1.5 - 0.9 * std::cos(0.9)).epsilon(1e-12));
  CHECK(std::isfinite(j["loss"].get<double>()));
  CHECK(std::isfinite(j["grad"].get<double>()));
}

TEST_CASE("sweep runs the pendulum chain with finite losses and AD next to FD") {
  const std::string out = sg::test::binary_dir() + "/tree_sweep.json";
  const auto r = run_softgrad("sweep " + scene("pendulum_chain.json") + " --set sweep.points=7 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  REQUIRE(j["loss"].size() == 7);
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(j["status"][i] == "ok");
    CHECK(std::isfinite(j["loss"][i].get<double>()));
    CHECK(j["grad"][i].get<double>() == doctest::Approx(j["grad_fd"][i].get<double>()).epsilon(1e-6));
  }
}

TEST_CASE("gradient of the pendulum chain: forward, reverse and FD agree for every parameter") {
  const std::string out = sg::test::binary_dir() + "/tree_gradient.json";
  for (const char* mode : {"forward", "reverse"}) {
    CAPTURE(mode);
    const auto r = run_softgrad("gradient " + scene("pendulum_chain.json") + " --wrt all --mode " + mode +
                                " --out " + out);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
  }
  const auto r =
      run_softgrad("gradient " + scene("pendulum_chain.json") +
                   " --wrt model.tree.bodies.1.joints.0.damping model.tree.bodies.2.mass --mode both");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("a malformed tree scene is exit 2 with the key path") {
  const std::string path = sg::test::binary_dir() + "/tree_bad.json";
  std::ofstream(path) << R"({"model": {"type": "tree", "tree": {"bodies": [
      {"joints": [{"type": "hinge"}]}, {"parent": 3, "joints": [{"type": "screw"}]}]}},
    "contact": {"model": "none"}})";
  const auto r = run_softgrad("simulate " + path);
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("model.tree.bodies.1.parent: parent 3 must be -1 (the world) or an earlier body") !=
        std::string::npos);
  CHECK(r.output.find("model.tree.bodies.1.joints.0.type: expected one of hinge, slide, ball") !=
        std::string::npos);
  // A particle contact law on a tree.
  const auto c = run_softgrad("simulate " + scene("pendulum_chain.json") + " --set contact.model=penalty");
  CHECK(c.exit_code == 2);
  CHECK(c.output.find("contact.model: \"penalty\": joint trees collide with MuJoCo's soft contacts") !=
        std::string::npos);
}

TEST_CASE("--device auto keeps a tree scene on the CPU") {
  const auto r =
      run_softgrad("sweep " + scene("pendulum_chain.json") + " --set sweep.points=3 --device auto");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("a MuJoCo model file is a scene: simulate and validate take humanoid.xml as it is") {
  // libmujoco-samples (scripts/install-deps) installs it; scenes/humanoid_fall.json imports the same file.
  const std::string model = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  const std::string out = sg::test::binary_dir() + "/humanoid_xml_simulate.json";
  const auto r = run_softgrad("simulate " + model + " --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  CHECK(j["layout"] == "tree");
  CHECK(j["status"] == "ok");
  CHECK(j["value"].get<double>() == -9.81);  // the default run is at the model's own gravity
  // 100 steps of 5 ms: the humanoid starts on its feet and crumples; its torso (body 0) sinks (measured
  // 0.24 m; in zero gravity, the sweep's old default value, it would not move down at all).
  const auto& q = j["q"];
  REQUIRE(q.size() > 1);
  CHECK(q[q.size() - 1][2].get<double>() < q[0][2].get<double>() - 0.1);
  const auto v = run_softgrad("validate " + model);
  INFO(v.output);
  CHECK(v.exit_code == 0);
  CHECK(v.output.find("mj_step comparison") != std::string::npos);
  // A model that does not parse: exit 2, the file named.
  const std::string bad = sg::test::binary_dir() + "/not_a_model.xml";
  std::ofstream(bad) << "<mujoco><worldbody>";
  const auto b = run_softgrad("simulate " + bad);
  CHECK(b.exit_code == 2);
  CHECK(b.output.find("not_a_model.xml") != std::string::npos);
}

TEST_CASE("validate says in how many steps each solver stopped at the iteration cap") {
  // humanoid.xml's own 50 Newton iterations settle in every step of its fall: no note. One iteration does
  // not settle once the body touches the floor, in softgrad's solver or in MuJoCo's (measured 25 and 17 of
  // 100 steps, before both blow up): the note gives both counts.
  const std::string model = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  const auto settled = run_softgrad("validate " + model);
  INFO(settled.output);
  CHECK(settled.output.find("ran to its cap") == std::string::npos);
  const auto capped = run_softgrad("validate " + model + " --set contact.mujoco.iterations=1");
  INFO(capped.output);
  const std::string lead = "ran to its cap of 1 iterations in ";
  const auto at = capped.output.find(lead);
  REQUIRE(at != std::string::npos);
  long ours = 0, theirs = 0;
  REQUIRE(std::sscanf(capped.output.c_str() + at + lead.size(),
                      "%ld of softgrad's steps without settling, and in %ld", &ours, &theirs) == 2);
  CHECK(ours > 0);
  CHECK(theirs > 0);
}
