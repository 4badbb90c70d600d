#pragma once
// MJCF files for the import tests: written from inline text into the build folder, so that each test shows
// the XML it checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/load_problem.hpp"
#include "mjcf/import.hpp"

namespace sg::test {

inline std::string mjcf_test_path(const std::string& name) {
  return std::string(SOFTGRAD_BINARY_DIR) + "/mjcf_tests/" + name + ".xml";
}

inline std::string write_mjcf(const std::string& name, const std::string& xml) {
  const std::string path = mjcf_test_path(name);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << xml;
  return path;
}

// A scene file written beside them (its model.file may name one of them); returns its path.
inline std::string write_scene(const std::string& name, const nlohmann::json& scene) {
  const std::string path = std::string(SOFTGRAD_BINARY_DIR) + "/mjcf_tests/" + name + ".json";
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << scene.dump(2);
  return path;
}

// A model with the given option element and worldbody content.
inline std::string mjcf_model(const std::string& worldbody, const std::string& extra = "") {
  return "<mujoco>\n" + extra + "\n<worldbody>\n" + worldbody + "\n</worldbody>\n</mujoco>\n";
}

// The imported keys, failing the test on import errors.
inline nlohmann::json imported(const std::string& name, const std::string& xml) {
  const scene::MjcfKeys out = mjcf::import_mjcf(write_mjcf(name, xml));
  std::string errors;
  for (const auto& e : out.errors) errors += e + "\n";
  INFO(errors);
  REQUIRE(out.errors.empty());
  return out.keys;
}

// All import errors as one text, for substring checks.
inline std::string import_errors(const std::string& name, const std::string& xml) {
  std::string text;
  for (const auto& e : mjcf::import_mjcf(write_mjcf(name, xml)).errors) text += e + "\n";
  return text;
}

inline std::string source_path(const std::string& relative) {
  return std::string(SOFTGRAD_SOURCE_DIR) + "/" + relative;
}

// A scene file (MJCF scenes import), failing the test on load errors.
inline Problem load_scene(const std::string& file, const std::vector<std::string>& sets = {}) {
  mjcf::register_importer();
  ProblemLoad loaded = load_problem_file(file, sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

// Forward mode against reverse mode and central FD (eps 1e-6) for `paths` at the scene's values: every
// gradient is nonzero (> 1e-4), reverse within rev_tol and FD within fd_tol of forward mode, relative to
// max(|forward|, 1e-3).
inline void check_reverse_and_fd(const Problem& p, const std::vector<std::string>& paths, double rev_tol,
                                 double fd_tol) {
  ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x), fd = g.finite_difference(x, 1e-6);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  REQUIRE(fd.status == "ok");
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(paths[j]);
    const double scale = std::max(std::fabs(fwd.grad[j]), 1e-3);
    CHECK(std::fabs(fwd.grad[j]) > 1e-4);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= rev_tol * scale);
    CHECK(std::fabs(fd.grad[j] - fwd.grad[j]) <= fd_tol * scale);
  }
}

// Reverse mode against forward mode for `paths` at the scene's values: within 1e-9 of max(|forward|, floor),
// each gradient above `floor` when `nonzero`, and the forward run with at least `min_events` events.
inline void check_reverse_equals_forward(const char* name, const Problem& p,
                                         const std::vector<std::string>& paths, long min_events, bool nonzero,
                                         double floor = 1e-3) {
  ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  CHECK(fwd.stats.events >= min_events);
  double worst = 0.0;
  for (std::size_t j = 0; j < paths.size(); ++j) {
    CAPTURE(paths[j]);
    const double scale = std::max(std::fabs(fwd.grad[j]), floor);
    worst = std::max(worst, std::fabs(rev.grad[j] - fwd.grad[j]) / scale);
    if (nonzero) CHECK(std::fabs(fwd.grad[j]) > floor);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-9 * scale);
  }
  MESSAGE(std::string(name) << " reverse: " << fwd.stats.events << " events, vs forward " << worst);
}

}  // namespace sg::test
