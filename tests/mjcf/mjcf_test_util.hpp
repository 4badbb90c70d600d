#pragma once
// MJCF files for the import tests: written from inline text into the build folder, so that each test shows
// the XML it checks.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/io/atomic_file.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/import.hpp"

namespace sg::test {

inline std::string mjcf_test_path(const std::string& name) {
  return sg::test::binary_dir() + "/mjcf_tests/" + name + ".xml";
}

// Writes text to path whole (engine/io's atomic writer): ctest runs each test case in its own process, two at
// once, and cases of one file write the same names (a reader saw a half-written scene once).
inline void write_whole(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::string error;
  INFO(error);
  REQUIRE(sg::io::write_file_atomic(path, text, &error));
}

inline std::string write_mjcf(const std::string& name, const std::string& xml) {
  const std::string path = mjcf_test_path(name);
  write_whole(path, xml);
  return path;
}

// A scene file written beside them (its model.file may name one of them); returns its path.
inline std::string write_scene(const std::string& name, const nlohmann::json& scene) {
  const std::string path = sg::test::binary_dir() + "/mjcf_tests/" + name + ".json";
  write_whole(path, scene.dump(2));
  return path;
}

// sets followed by more (a scene's --set list with additions).
inline std::vector<std::string> with_sets(std::vector<std::string> sets,
                                          const std::vector<std::string>& more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
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
  return sg::test::source_dir() + "/" + relative;
}

// A scene file (MJCF scenes import), failing the test on load errors.
inline Problem load_scene(const std::string& file, const std::vector<std::string>& sets = {}) {
  mjcf::register_importer();
  ProblemLoad loaded = load_problem_file(file, sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

// Each (override, message) case: loading the scene `file` with that --set fails, its errors holding the
// message (the key path and why).
inline void check_load_errors(const std::string& file,
                              const std::vector<std::pair<std::string, std::string>>& cases) {
  mjcf::register_importer();
  for (const auto& c : cases) {  // not a structured binding: clang 14 cannot capture one in CAPTURE's lambda
    CAPTURE(c.first);
    const ProblemLoad loaded = load_problem_file(file, {c.first});
    CHECK_FALSE(loaded.ok());
    CHECK(loaded.errors.find(c.second) != std::string::npos);
  }
}

// The tree of `p` (imported from the MJCF `file`) stepped next to mj_step for `steps` Euler steps of
// `timestep`: qpos, body positions and qvel within 1e-9, and MuJoCo's run moving (its largest |qvel| above
// min_speed: a model at rest proves little). Returns the comparison for further checks.
inline mjcf::TreeStepComparison check_follows_mj_step(const char* name, const Problem& p,
                                                      const std::string& file, long steps, double timestep,
                                                      double min_speed) {
  const mjcf::TreeStepComparison c =
      mjcf::compare_tree_with_mj_step(p.data.tree, file, steps, timestep, false);
  MESSAGE(std::string(name) << " vs mj_step: qpos " << c.qpos << ", xpos " << c.xpos << ", qvel " << c.qvel
                            << ", contacts up to " << c.max_contacts << ", largest speed " << c.max_speed);
  CHECK(c.max_speed > min_speed);
  CHECK(c.qpos < 1e-9);
  CHECK(c.xpos < 1e-9);
  CHECK(c.qvel < 1e-9);
  return c;
}

// Each of `offs` (a --set switching one feature off) makes the scene of `file` with `start` part from mj_step
// by more than 1e-3 in qpos over `steps` Euler steps of `timestep`: the comparison sees each feature act.
inline void check_each_matters(const std::string& file, const std::vector<std::string>& start,
                               const std::vector<std::string>& offs, long steps, double timestep) {
  for (const std::string& off : offs) {
    CAPTURE(off);
    const Problem q = load_scene(file, with_sets(start, {off}));
    CHECK(mjcf::compare_tree_with_mj_step(q.data.tree, file, steps, timestep, false).qpos > 1e-3);
  }
}

// Forward mode against reverse mode and central FD (relative step fd_eps) for `paths` at the scene's values:
// every gradient is nonzero (> 1e-4), reverse within rev_tol and FD within fd_tol of forward mode, relative
// to max(|forward|, 1e-3).
inline void check_reverse_and_fd(const Problem& p, const std::vector<std::string>& paths, double rev_tol,
                                 double fd_tol, double fd_eps = 1e-6) {
  ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x), fd = g.finite_difference(x, fd_eps);
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

// AD against FD at every point of a sweep of `points` points: each point ok, |AD - FD| within tol of
// max(|AD|, floor), and |AD| above floor when `nonzero`. Returns the worst relative difference.
inline double check_sweep_ad_fd(const SweepResult& r, std::size_t points, double tol, bool nonzero = false,
                                double floor = 1e-3) {
  REQUIRE(r.points.size() == points);
  double worst = 0.0;
  for (const PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    const double err = std::fabs(pt.grad - pt.grad_fd) / std::max(std::fabs(pt.grad), floor);
    worst = std::max(worst, err);
    CHECK(err < tol);
    if (nonzero) CHECK(std::fabs(pt.grad) > floor);
  }
  return worst;
}

// The scene's sweep, AD against FD at every point (check_sweep_ad_fd, tolerance tol), then reverse mode
// against forward mode for `paths` at the scene's values (each gradient above 1e-3).
inline void check_sweep_and_reverse(const char* name, const Problem& p, std::size_t points, double tol,
                                    const std::vector<std::string>& paths) {
  const double worst = check_sweep_ad_fd(run_sweep(p), points, tol);
  MESSAGE(std::string(name) << ": worst relative AD-FD difference over the sweep " << worst);
  check_reverse_equals_forward(name, p, paths, 0, true);
}

// Torsional and rolling friction: a spinning top-like ball on a hinge-and-slide carriage and a free ball
// rolling and spinning on the floor, their geoms of the given condim (friction's torsional and rolling
// coefficients raised so that the rows matter). option: attributes added to <option>; extra: more bodies.
inline std::string rolling_balls(int condim, const std::string& option = "", const std::string& extra = "") {
  const std::string c = std::to_string(condim);
  return R"(<mujoco><option timestep="0.002" )" + option + R"(/><worldbody>
    <geom name="floor" type="plane" size="3 3 0.1" friction="0.8 0.02 0.01"/>
    <body name="carriage" pos="0 0 0.098">
      <joint name="run" type="slide" axis="1 0 0" damping="0.1"/>
      <joint name="spin" type="hinge" axis="0 0 1"/>
      <geom name="top" type="sphere" size="0.1" condim=")" +
         c + R"(" friction="0.8 0.05 0.02"/>
    </body>
    <body name="roller" pos="0.6 0.3 0.08">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.08" condim=")" +
         c + R"(" friction="0.6 0.03 0.01"/>
    </body>)" +
         extra +
         R"(
  </worldbody></mujoco>)";
}

}  // namespace sg::test
