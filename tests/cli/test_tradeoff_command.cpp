// `softgrad tradeoff` through the real binary: the printed table, the JSON, CSV and SVG it writes, and clear
// refusals of bad options.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

using sg::test::read_json;
using sg::test::run_softgrad;
using sg::test::scene;

namespace {

std::string temp(const std::string& name) {
  return sg::test::binary_dir() + "/tradeoff_" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("tradeoff prints and writes each setting's errors against the reference and its run times") {
  const std::string out = temp("toy.json"), csv = temp("toy.csv"), svg = temp("toy.svg");
  std::remove(out.c_str());
  const auto r = run_softgrad("tradeoff " + scene("toy_point_mass.json") +
                              " --methods euler,tsit5 --tols 1e-4,1e-8 --divisions 1,10 --repeats 1 --out " +
                              out + " --csv " + csv + " --svg " + svg);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The default value is the middle of the sweep range; x = 1.5 ends in the penalty contact (0.80035).
  CHECK(r.output.find("toy_point_mass at model.particles.0.pos.2 = 1.5") != std::string::npos);
  CHECK(r.output.find("reference tsit5 tol 1e-12: loss") != std::string::npos);
  CHECK(r.output.find("tsit5 tol 1e-08") != std::string::npos);
  const auto j = read_json(out);
  CHECK(j["value"].get<double>() == 1.5);
  CHECK(j["reference"]["grad"].get<double>() == doctest::Approx(0.80035364).epsilon(1e-8));
  REQUIRE(j["rows"].size() == 4);
  CHECK(j["rows"][0]["family"] == "euler");
  CHECK(j["rows"][0]["knob"] == "h");
  CHECK(j["rows"][0]["value"].get<double>() == doctest::Approx(0.1));
  CHECK(j["rows"][0]["set"]["integrator.substeps"] == 1);
  CHECK(j["rows"][3]["knob"] == "tol");
  CHECK(j["rows"][3]["set"]["integrator.rtol"].get<double>() == 1e-8);
  for (const auto& row : j["rows"]) {
    CHECK(row["status"] == "ok");
    CHECK(row["grad_error"].get<double>() >= 0.0);
    CHECK(row["seconds_grad"].get<double>() > 0.0);
  }
  const std::string table = read_text(csv);
  CHECK(table.rfind("family,knob,value,loss,grad,loss_error,grad_error,", 0) == 0);
  CHECK(std::count(table.begin(), table.end(), '\n') == 1 + 2 + 4);  // header, the references, the rows
  CHECK(read_text(svg).find("Gradient error against cost") != std::string::npos);

  // --value and --set of the swept number pick the point.
  const auto at = run_softgrad("tradeoff " + scene("toy_point_mass.json") +
                               " --methods tsit5 --tols 1e-6 --repeats 1 --value 0.4");
  CHECK(at.exit_code == 0);
  CHECK(at.output.find("= 0.4\n") != std::string::npos);
}

TEST_CASE("tradeoff refuses unknown methods, bad tolerances and divisions with the option's name") {
  const std::string toy = scene("toy_point_mass.json");
  const auto unknown = run_softgrad("tradeoff " + toy + " --methods tsit5,rk45");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.output.find("--methods: unknown integrator family \"rk45\"") != std::string::npos);
  const auto tol = run_softgrad("tradeoff " + toy + " --tols 1e-6,-1");
  CHECK(tol.exit_code == 2);
  CHECK(tol.output.find("--tols") != std::string::npos);
  const auto nan_tol = run_softgrad("tradeoff " + toy + " --tols nan");
  CHECK(nan_tol.exit_code == 2);
  const auto div = run_softgrad("tradeoff " + toy + " --divisions 0");
  CHECK(div.exit_code == 2);
  CHECK(div.output.find("--divisions") != std::string::npos);
  const auto ref = run_softgrad("tradeoff " + toy + " --reference euler");
  CHECK(ref.exit_code == 2);
  CHECK(ref.output.find("--reference: expected an adaptive method") != std::string::npos);
  const auto value = run_softgrad("tradeoff " + toy + " --value inf");
  CHECK(value.exit_code == 2);
  CHECK(run_softgrad("tradeoff " + toy + " --set integrator.tyep=rk4").exit_code == 2);
}
