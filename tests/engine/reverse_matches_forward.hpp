#pragma once
// Reverse mode against forward mode on one problem: every parameter's gradient from one taped run equals
// forward mode's to 1e-10 relative (the reverse-mode issue's target), measured against at least 1e-2 (so
// absolute 1e-12 for derivatives below that: a derivative that vanishes by symmetry, a box's size along an
// axis it does not touch with, is rounding, 2.7e-13 apart between the two modes on free bodies run as trees).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"

namespace sg::test {

inline void check_reverse_matches_forward(const Problem& p) {
  ParameterGradient g(p, all_gradient_paths(p, true), nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  CHECK(rev.loss == fwd.loss);
  CHECK(rev.runs == 1);
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(g.paths()[j]);
    CAPTURE(fwd.grad[j]);
    CAPTURE(rev.grad[j]);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-10 * std::max(std::fabs(fwd.grad[j]), 1e-2));
  }
}

}  // namespace sg::test
