// Every bad-input case of the command line: a clear message naming the file and key path, exit code 2 for
// bad input and 1 for numerical failure, never a crash or a hang.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cstdio>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

using sg::test::run_softgrad;
using sg::test::scene;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = sg::test::binary_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

void expect_bad(const std::string& args, const std::string& needle) {
  const auto r = run_softgrad(args);
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(needle) != std::string::npos);
}

}  // namespace

TEST_CASE("malformed JSON names the file, line and column") {
  const std::string f = write_temp("malformed.json", "{\n  \"integrator\": {\"dt\": 0.1,,}\n}\n");
  expect_bad("validate " + f, "malformed.json:2:");
}

TEST_CASE("unknown keys get a did-you-mean") {
  const std::string f = write_temp("unknown_key.json", R"({"integrator": {"dtt": 0.1}})");
  expect_bad("validate " + f, "integrator.dtt: unknown key (did you mean \"integrator.dt\"?)");
}

TEST_CASE("wrong types, out of range, NaN and infinite values name the key path") {
  const std::string toy = scene("toy_point_mass.json");
  expect_bad("validate " + toy + " --set integrator.dt=-0.1", "integrator.dt: expected a number > 0");
  expect_bad("validate " + toy + " --set integrator.dt=0", "integrator.dt: expected a number > 0");
  expect_bad("validate " + toy + " --set integrator.rtol=0", "integrator.rtol");
  expect_bad("validate " + toy + " --set integrator.atol=-1", "integrator.atol");
  expect_bad("validate " + toy + " --set integrator.steps=abc", "integrator.steps");
  expect_bad("validate " + toy + " --set contact.penalty.k=nan", "contact.penalty.k");
  expect_bad("validate " + toy + " --set model.particles.0.mass=inf", "model.particles.0.mass");
  expect_bad("validate " + toy + " --set contact.model=hrd", "did you mean \"hard\"");
  expect_bad("validate " + toy + " --set integrator.dtt=1", "did you mean");
}

TEST_CASE("sweeps with 0 points or from > to are rejected") {
  const std::string toy = scene("toy_point_mass.json");
  expect_bad("sweep " + toy + " --set sweep.points=0", "sweep.points");
  expect_bad("sweep " + toy + " --set sweep.from=2 --set sweep.to=1", "sweep.from");
}

TEST_CASE("a missing scene file and an incompatible integrator are clear errors") {
  expect_bad("sweep /nonexistent/scene.json", "/nonexistent/scene.json");
  expect_bad("validate " + scene("toy_elastic.json") + " --set integrator.type=rk4", "integrator.type");
  expect_bad("validate " + scene("toy_point_mass.json") + " --set sweep.parameter=integrator.dt",
             "sweep.parameter");
}

TEST_CASE("max_steps exhausted: the point gets its status, the others are still computed, exit 1") {
  const auto r =
      run_softgrad("sweep " + scene("toy_point_mass.json") +
                   " --set integrator.type=tsit5 --set integrator.rtol=1e-12 --set integrator.atol=1e-12"
                   " --set integrator.max_steps=60 --set sweep.points=5 --set sweep.from=0.3 --set "
                   "sweep.to=2.9 --out " +
                   sg::test::binary_dir() + "/max_steps.json");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  std::ifstream in(sg::test::binary_dir() + "/max_steps.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("max_steps at t=") != std::string::npos);
  CHECK(text.find("\"ok\"") != std::string::npos);  // the point that never touches the ground still runs
}

TEST_CASE("state blow-up is reported per point, not a crash") {
  const auto r = run_softgrad(
      "sweep " + scene("toy_point_mass.json") +
      " --set contact.penalty.k=1e15 --set sweep.points=3 --set sweep.from=0.2 --set sweep.to=0.4");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("3 of 3 points failed") != std::string::npos);
}

TEST_CASE("help works for every subcommand") {
  for (const char* sub : {"sweep", "simulate", "validate", "bench"}) {
    const auto r = run_softgrad(std::string(sub) + " --help");
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("--help") != std::string::npos);
  }
}
