#pragma once
// The exact line search of MuJoCo's primal Newton: 1-D Newton on phi(alpha) = cost(a + alpha dir), a convex
// piecewise quadratic. Its smooth part is base + alpha curvature (the mass matrix's products along dir); each
// row adds D (J a - aref + alpha J dir)^2 / 2 while that is negative. Shared by the free-body solver
// (engine/contact/newton_solver.hpp) and the joint trees' (engine/articulated/constraint_solve.hpp).
#include <cmath>

#include "engine/core/platform.hpp"

namespace sg {

// jar: J a - aref per row; jdir: J dir per row. Stops when a Newton step moves alpha by less than
// tolerance (1 + |alpha|), or after max_iterations.
SG_HD inline double exact_line_search(double base, double curvature, const double* jar, const double* jdir,
                                      const double* D, int rows, int max_iterations, double tolerance) {
  double alpha = 1.0;
  for (int it = 0; it < max_iterations; ++it) {
    double d1 = base + alpha * curvature, d2 = curvature;
    for (int r = 0; r < rows; ++r) {
      const double j = jar[r] + alpha * jdir[r];
      if (!(j < 0.0)) continue;
      d1 += D[r] * j * jdir[r];
      d2 += D[r] * jdir[r] * jdir[r];
    }
    if (!(d2 > 0.0)) break;
    const double step = d1 / d2;
    alpha -= step;
    if (std::fabs(step) <= tolerance * (1.0 + std::fabs(alpha))) break;
  }
  return alpha;
}

}  // namespace sg
