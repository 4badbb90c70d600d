// Hostile input through the real binary (issue 11): deep nesting, endless files, huge arrays and strings,
// out-of-range literals, and output paths that are links, devices, folders or empty. Each case must end in
// a clear message and the documented exit code, fast, never a crash.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/test_paths.hpp"
#include "tests/time_limits.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

namespace fs = std::filesystem;
using sg::test::run_softgrad;
using sg::test::scene;

namespace {

std::string temp_path(const std::string& name) {
  return sg::test::binary_dir() + "/hostile_" + name;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs and checks exit code, message and that it took well under the time a hang or quadratic blow-up would.
void expect(const std::string& args, int exit_code, const std::string& needle) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_softgrad(args);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(args.substr(0, 200) << "\n" << r.output.substr(0, 2000));
  CHECK(r.exit_code == exit_code);
  CHECK(r.output.find(needle) != std::string::npos);
  CHECK(r.output.size() < 20000);  // errors are capped and echoed values cut
  CHECK(seconds < sg::test::hang_limit_seconds(10.0));
}

std::string nested(int depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

}  // namespace

TEST_CASE("a value nested 100,000 deep is refused with its position, not a stack overflow") {
  const std::string f = write_temp("deep.json", "{\"name\": " + nested(100000) + "}");
  expect("validate " + f, 2, "hostile_deep.json:1:");
  expect("validate " + f, 2, "nested deeper than 32 levels");
  expect("validate " + scene("toy_point_mass.json") + " --set model.particles.0.mass=" + nested(50000), 2,
         "model.particles.0.mass: value is longer than 64 KiB");
  expect("validate " + scene("toy_point_mass.json") + " --set model.particles.0.mass=" + nested(5000), 2,
         "model.particles.0.mass: nested deeper than 32 levels");
}

TEST_CASE("an endless or huge scene file stops at the size limit") {
  expect("validate /dev/zero", 2, "/dev/zero: cannot read scene file: larger than 4 MiB, the limit");
  expect("validate " + fs::temp_directory_path().string(), 2, "cannot read scene file: it is a directory");
}

TEST_CASE("a number beyond a double's range is reported with line and column") {
  const std::string f = write_temp("overflow.json", "{\n  \"integrator\": {\"dt\": 1e309}\n}\n");
  expect("validate " + f, 2, "hostile_overflow.json:2:24: number 1e309 is out of a double's range");
}

TEST_CASE("100,000 particles and a 100,000-character path are rejected at once with one message each") {
  std::string particles = "[";
  for (int i = 0; i < 100000; ++i) particles += std::string(i ? "," : "") + "{\"mass\": 1}";
  particles += "]";
  const std::string f = write_temp("many.json", "{\"model\": {\"particles\": " + particles + "}}");
  expect("validate " + f, 2, "model.particles: expected an array of 1 to 16 objects, got 100000 entries");
  const std::string long_path(60000, 'x');
  const std::string g = write_temp("long.json", "{\"sweep\": {\"parameter\": \"" + long_path + "\"}}");
  expect("validate " + g, 2, "sweep.parameter: expected a string of at most 16384 characters, got 60000");
  const std::string h = write_temp("long_key.json", "{\"" + long_path + "\": 1}");
  expect("validate " + h, 2, "unknown key");
}

TEST_CASE("thousands of problems are capped in the report") {
  std::string terms = "[";
  for (int i = 0; i < 3000; ++i) terms += std::string(i ? "," : "") + "{\"weight\": \"heavy\"}";
  terms += "]";
  const std::string f = write_temp("many_errors.json", "{\"loss\": {\"terms\": " + terms + "}}");
  expect("validate " + f, 2, "more problems");
}

TEST_CASE("outputs: links written through, devices in place, bad paths refused before the run") {
  const std::string toy = scene("toy_point_mass.json") + " --set sweep.points=5";
  const std::string target = temp_path("target.json"), link = temp_path("link.json");
  fs::remove(target);
  fs::remove(link);
  fs::create_symlink(target, link);
  expect("sweep " + toy + " --out " + link, 0, "result:");
  CHECK(fs::is_symlink(link));
  CHECK(slurp(target).find("\"points\"") != std::string::npos);

  if (fs::exists("/dev/full")) {
    expect("sweep " + toy + " --out /dev/full", 1, "/dev/full: cannot write: No space left on device");
    CHECK(fs::is_character_file("/dev/full"));
  }
  expect("sweep " + toy + " --out ''", 2, "the output path is empty");
  expect("sweep " + toy + " --out " + fs::temp_directory_path().string(), 2, "is a directory");
  expect("sweep " + toy + " --csv /nonexistent/dir/x.csv", 2, "does not exist");
}

TEST_CASE("a non-finite gradient or loss is a failed point, never ok") {
  const std::string spin = scene("billiards_nogravity.json") + " --set model.bodies.0.angvel=[1e5,1e5,1e5]";
  expect("simulate " + spin, 1, "nonfinite_gradient at t=");
  expect("sweep " + spin + " --set sweep.points=3", 1, "3 failed");
  expect("simulate " + scene("toy_point_mass.json") + " --set loss.terms.0.weight=1e308", 1, "nonfinite_");
}
