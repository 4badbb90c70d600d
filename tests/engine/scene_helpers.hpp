#pragma once
// Builds problems for tests from the shipped scenes or inline JSON, failing the test on load errors.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include "engine/problem/load_problem.hpp"

namespace sg::test {

inline std::string scene_path(const std::string& name) {
  return sg::test::source_dir() + "/scenes/" + name;
}

// Free bodies on their own code, which the GPU kernels run: model.run_as tree is the default, which runs on
// the CPU only (engine/sweep/device_problem.cpp).
inline const char* const kFreeBodyKernel = "model.run_as=free_bodies";

inline Problem shipped(const std::string& name, const std::vector<std::string>& sets = {}) {
  ProblemLoad loaded = load_problem_file(scene_path(name), sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

inline Problem from_json(const nlohmann::json& doc) {
  ProblemLoad loaded = load_problem_json(doc, "test.json");
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

// Calls fn(name, problem) for every shipped scene that loads here (MJCF scenes need libmujoco), with the
// scene's name captured for failure messages.
template <class F>
void for_each_shipped_scene(F&& fn) {
  for (const auto& entry : std::filesystem::directory_iterator(sg::test::source_dir() + "/scenes")) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    const ProblemLoad loaded = load_problem_file(entry.path().string());
    if (!loaded.ok()) continue;
    fn(name, *loaded.problem);
  }
}

}  // namespace sg::test
