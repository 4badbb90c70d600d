// MuJoCo's own sample models (libmujoco-samples, which scripts/install-deps installs), opened as a researcher
// would: `softgrad validate X.xml`. Each one either follows mj_step over 500 Euler steps at its own timestep
// (tolerance 1e-9 in qpos, qvel and body positions; measured 2026-12-02 at 1.1e-12 (humanoid.xml) or below
// in qpos and 1.0e-10 (mug.xml) or below in qvel), or is refused by name with exit 2. Every model the
// package installs is in one of the two lists, so a model that moves from one to the other, or a new one,
// fails here.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "cli_runner.hpp"

using sg::test::run_softgrad;

namespace {

const std::string kModels = "/usr/share/mujoco/model/";

struct Followed {
  const char* file;
  int min_contacts;  // the most contacts mj_step found in one step is at least this (measured: above)
};

// Measured 2026-12-02: mug 3 contacts, rope 42, loop 27, humanoid.xml 12; the others do not touch anything.
const Followed kFollowed[] = {
    {"mug/mug.xml", 3},
    {"composite/rope.xml", 20},
    {"composite/loop.xml", 10},
    {"composite/scene.xml", 0},  // a floor only: at rest, which validate says
    {"humanoid/humanoid.xml", 6},
    {"hammock/humanoid_body.xml", 0},
    {"humanoid100/humanoid_body.xml", 0},
    {"slider_crank/slider_crank.xml", 0},
    {"tendon_arm/arm26.xml", 0},
};

struct Refused {
  const char* file;
  const char* reason;  // a part of the message
};

const Refused kRefused[] = {
    {"flag/flag.xml", "340 degrees of freedom; a tree scene holds at most 64"},
    {"hammock/hammock.xml", "178 equality constraints; a tree scene holds at most 16"},
    {"humanoid100/humanoid100.xml", "100 <body> elements; softgrad imports at most a tree of 63 bodies"},
    {"humanoid/22_humanoids.xml", "352 <body> elements; softgrad imports at most a tree of 63 bodies"},
    {"composite/cloth.xml", "82 bodies; a tree scene holds at most 63"},
    {"composite/grid2pin.xml", "144 equality constraints"},
    {"composite/particle.xml", "3000 degrees of freedom"},
    {"composite/softbox.xml", "651 equality constraints"},
    {"adhesion/active_adhesion.xml", "body transmissions (adhesion) are not supported"},
};

bool installed() {
  return std::filesystem::exists(kModels + "humanoid/humanoid.xml");
}

// "MuJoCo found up to N contacts in a step": N, or -1 without that phrase.
int most_contacts(const std::string& output) {
  const std::string key = "MuJoCo found up to ";
  const auto at = output.find(key);
  if (at == std::string::npos) return -1;
  return std::atoi(output.c_str() + at + key.size());
}

}  // namespace

TEST_CASE("MuJoCo's sample models that fit a tree follow mj_step over 500 steps to 1e-9") {
  REQUIRE_MESSAGE(installed(), "libmujoco-samples is missing: scripts/install-deps installs it");
  for (const auto& f : kFollowed) {
    const auto r = run_softgrad("validate " + kModels + f.file + " --mujoco-steps 500 --mujoco-tol 1e-9");
    INFO(f.file, "\n", r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("500 Euler steps") != std::string::npos);
    CHECK(r.output.find(": ok (tolerance 1e-09)") != std::string::npos);
    CHECK(r.output.find("DIFFERENT") == std::string::npos);
    CHECK(most_contacts(r.output) >= f.min_contacts);
  }
}

TEST_CASE("MuJoCo's sample models that do not fit are refused by name, exit 2") {
  REQUIRE_MESSAGE(installed(), "libmujoco-samples is missing: scripts/install-deps installs it");
  for (const auto& f : kRefused) {
    const auto r = run_softgrad("validate " + kModels + f.file);
    INFO(f.file, "\n", r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find(kModels + f.file) != std::string::npos);
    CHECK(r.output.find(f.reason) != std::string::npos);
    CHECK(r.output.find("mj_step comparison") == std::string::npos);
  }
}

TEST_CASE("every model libmujoco-samples installs is in one of the two lists") {
  REQUIRE_MESSAGE(installed(), "libmujoco-samples is missing: scripts/install-deps installs it");
  std::set<std::string> listed;
  for (const auto& f : kFollowed) listed.insert(f.file);
  for (const auto& f : kRefused) listed.insert(f.file);
  std::set<std::string> found;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kModels))
    if (e.is_regular_file() && e.path().extension() == ".xml")
      found.insert(std::filesystem::relative(e.path(), kModels).string());
  for (const auto& f : found) {
    INFO(f);
    CHECK(listed.count(f) == 1);
  }
  CHECK(found.size() == listed.size());
}
