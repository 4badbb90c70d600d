// A sweep is a pure function of its scene: run twice, and with 1 and 2 worker threads, its JSON result
// (timings removed), CSV and SVG are byte for byte the same.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

using sg::test::run_softgrad;
using sg::test::scene;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Outputs {
  std::string json, csv, svg;
};

Outputs sweep(const std::string& scene_args, int threads, const std::string& tag) {
  const std::string base = sg::test::binary_dir() + "/determinism_" + tag;
  const auto r = run_softgrad("sweep " + scene_args + " --threads " + std::to_string(threads) + " --out " +
                              base + ".json --csv " + base + ".csv --svg " + base + ".svg");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  nlohmann::json result = nlohmann::json::parse(slurp(base + ".json"));
  REQUIRE(result["stats"].contains("seconds"));
  result["stats"].erase("seconds");  // the only field allowed to differ
  return {result.dump(1), slurp(base + ".csv"), slurp(base + ".svg")};
}

void check_deterministic(const std::string& scene_args, const std::string& name) {
  const Outputs first = sweep(scene_args, 1, name + "_1a");
  const Outputs again = sweep(scene_args, 1, name + "_1b");
  const Outputs two = sweep(scene_args, 2, name + "_2");
  CHECK(first.json == again.json);
  CHECK(first.json == two.json);
  CHECK(first.csv == again.csv);
  CHECK(first.csv == two.csv);
  CHECK(first.svg == two.svg);
}

}  // namespace

TEST_CASE("the toy sweep is byte-identical across runs and thread counts") {
  check_deterministic(scene("toy_point_mass.json"), "toy");
}

TEST_CASE("a rigid sweep with events is byte-identical across runs and thread counts") {
  check_deterministic(scene("toss_box_diffmjx.json") + " --set sweep.points=24", "box");
  check_deterministic(scene("billiards.json") + " --set sweep.points=8", "billiards");
}
