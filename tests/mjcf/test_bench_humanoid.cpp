// softgrad bench --only humanoid (issue #35's targets, docs/benchmarks.md): its tables print, both engines
// step the same trajectory, and the staged pass it times is TreeSystem's forward pass to the bit. The
// timings themselves are read, never asserted: targets are checked in benchmarks, not in unit tests.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/cli/cli_runner.hpp"

TEST_CASE("bench --only humanoid prints the MuJoCo comparison, the gradient ratios and where a step goes") {
  const char* humanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  REQUIRE_MESSAGE(std::filesystem::exists(humanoid), humanoid << " is missing: run scripts/install-deps");
  const auto r = sg::test::run_softgrad("bench --only humanoid");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const char* row :
       {"| MuJoCo 2.2.2 mj_step |", "| softgrad step (double) |", "| forward-mode step, Dual<1>",
        "| forward-mode step, Dual<4>", "| plain rollout (double) |", "| reverse mode, checkpointed",
        "| kinematics (mj_kinematics, mj_comPos) |", "| constraint solve (Newton) |", "| whole step |"})
    CHECK_MESSAGE(r.output.find(row) != std::string::npos, row);
  // The staged pass reproduces TreeSystem::forward (else the bench prints a warning).
  CHECK(r.output.find("did not reproduce") == std::string::npos);
  // MuJoCo and softgrad end the 300 steps in the same state (validate's tolerance).
  const std::string key = "final qpos differ by ";
  const std::size_t at = r.output.find(key);
  REQUIRE(at != std::string::npos);
  CHECK(std::strtod(r.output.c_str() + at + key.size(), nullptr) < 1e-9);
}
