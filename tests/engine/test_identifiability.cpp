// engine/optimize/identifiability.hpp: which fitted numbers the data do not identify, from the fit's end.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/optimize/identifiability.hpp"

using namespace sg;

namespace {

FitResult ended_at(std::vector<double> values, std::vector<double> std_error,
                   std::vector<bool> at_bound = {}) {
  FitResult r;
  FitStep last;
  last.values = std::move(values);
  r.path.push_back(last);
  r.std_error = std::move(std_error);
  r.at_bound = at_bound.empty() ? std::vector<bool>(r.std_error.size(), false) : std::move(at_bound);
  return r;
}

}  // namespace

TEST_CASE("a well-determined fit is identified throughout") {
  const FitResult r = ended_at({0.61, 0.021, -1.49}, {0.01, 0.002, 0.02});
  const std::vector<std::string> p = identification_problems(r, {0.4, 0.03, -1.2}, FitSettings{});
  for (const std::string& why : p) CHECK(why.empty());
  CHECK(not_identified_text({"a", "b", "c"}, p).empty());
}

TEST_CASE("runaway values, bounds, infinite and oversized standard errors are not identified") {
  const double inf = std::numeric_limits<double>::infinity();
  // A damping ratio run to 2.4e67 and another to 1e-60 (the 3 mm noise fits), a size on its bound, a
  // number the data do not see, a positive quantity known only to +-150%, and a signed velocity whose error
  // exceeds its small value (fine: it may be near zero).
  const FitResult r = ended_at({2.4e67, 1e-60, 0.55, 0.3, 0.02, 0.001}, {1.0, 1e-61, 0.01, inf, 0.03, 0.01},
                               {false, false, true, false, false, false});
  const std::vector<double> start = {0.7, 0.7, 0.4, 0.5, 0.03, -0.2};
  const std::vector<std::string> p = identification_problems(r, start, FitSettings{});
  REQUIRE(p.size() == 6);
  CHECK(p[0].rfind("ran to 2.4e+67", 0) == 0);
  CHECK(p[1].rfind("ran to 1e-60", 0) == 0);
  CHECK(p[2].rfind("on its bound", 0) == 0);
  CHECK(p[3].find("do not determine") != std::string::npos);
  CHECK(p[4].find("exceeds the value") != std::string::npos);
  CHECK(p[5].empty());
  const std::string text = not_identified_text({"d1", "d2", "size", "seen", "tau", "v"}, p);
  CHECK(text.rfind("not identified: d1 (ran to", 0) == 0);
  CHECK(text.find("; tau (std. error 0.03 exceeds the value)") != std::string::npos);
  CHECK(text.find(" v (") == std::string::npos);
}

TEST_CASE("numbers held fixed (profiles) are never flagged") {
  const FitResult r = ended_at({1e12}, {std::numeric_limits<double>::infinity()});
  FitSettings s;
  s.fixed = {true};
  CHECK(identification_problems(r, {1.0}, s)[0].empty());
}
