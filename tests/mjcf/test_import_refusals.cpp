// MJCF files the import refuses before or instead of trusting MuJoCo's compiler (issue #42): MuJoCo's own
// warnings during the import, and files with more bodies than the engine holds, counted before MuJoCo's
// compiler spends half a minute on them.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "mjcf_test_util.hpp"
#include "tests/time_limits.hpp"

using sg::test::import_errors;
using sg::test::mjcf_model;

TEST_CASE("a MuJoCo warning during the import refuses it instead of going to stdout") {
  sg::mjcf::register_importer();
  // MuJoCo 2.2.2 replaces the NaN position and warns on stdout; the body used to land at the origin, exit 0.
  const std::string errors = import_errors(
      "nan_pos", mjcf_model("<body pos=\"nan 0 1\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>"));
  INFO(errors);
  CHECK(errors.find("MuJoCo warns while importing") != std::string::npos);
}

TEST_CASE("more <body> elements than the engine holds are refused before MuJoCo compiles them") {
  std::string bodies;
  for (int i = 0; i < 10000; ++i)
    bodies += "<body pos=\"" + std::to_string(i) +
              " 0 1\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>\n";
  const auto start = std::chrono::steady_clock::now();
  const std::string errors = import_errors("ten_thousand_bodies", mjcf_model(bodies));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(errors);
  CHECK(errors.find("10000 <body> elements; softgrad imports at most a tree of 63 bodies") !=
        std::string::npos);
  CHECK(seconds < sg::test::hang_limit_seconds(
                      5.0));  // MuJoCo's compiler took 25-33 s on it; the count takes milliseconds
}
