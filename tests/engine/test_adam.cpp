// Adam against a quadratic with a known minimum, and the bias-corrected first step.
#include <doctest/doctest.h>

#include "engine/optimize/adam.hpp"

using namespace sg;

TEST_CASE("Adam's first step moves by lr against the gradient's sign, and it minimises a quadratic") {
  Adam first;
  CHECK(first.step(1.0, 5.0) == doctest::Approx(0.9).epsilon(1e-9));  // bias-corrected: m/sqrt(v) = 1
  Adam opt;
  opt.lr = 0.05;
  double x = 3.0;
  for (int i = 0; i < 2000; ++i) x = opt.step(x, 2.0 * (x - 1.0));  // minimise (x - 1)^2
  CHECK(x == doctest::Approx(1.0).epsilon(1e-3));
}
