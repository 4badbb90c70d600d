#pragma once
// Forward mode, reverse mode and central FD of a ParameterGradient at one point, against each other: shared
// by the gradient tests of several areas.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"

namespace sg::test {

// At x: the three runs are ok, the derivative in x[0] is not negligible (above 1e-4), reverse equals forward
// (1e-10 relative, floor 1e-3, as the other reverse-mode tests) and forward equals central FD of step `eps`
// (`fd_tol` relative to max(|FD|, 1e-3)) in every parameter. `label` names x[0] in the message.
inline void check_forward_reverse_fd(ParameterGradient& g, const std::vector<double>& x, double eps,
                                     double fd_tol, const std::string& label) {
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x), fd = g.finite_difference(x, eps);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  REQUIRE(fd.status == "ok");
  std::string ad_text, fd_text;
  for (std::size_t j = 0; j < x.size(); ++j) {
    ad_text += (j ? ", " : "") + std::to_string(fwd.grad[j]);
    fd_text += (j ? ", " : "") + std::to_string(fd.grad[j]);
  }
  MESSAGE(label << " " << x[0] << ": AD " << ad_text << "; FD " << fd_text);
  CHECK(std::fabs(fwd.grad[0]) > 1e-4);
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(g.paths()[j]);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-10 * std::max(std::fabs(fwd.grad[j]), 1e-3));
    CHECK(std::fabs(fwd.grad[j] - fd.grad[j]) <= fd_tol * std::max(std::fabs(fd.grad[j]), 1e-3));
  }
}

}  // namespace sg::test
