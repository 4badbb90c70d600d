#pragma once
// Hairer's rule for the first trial step when none is given (engine-notes section 3). Computed on values
// only: Diffrax stops the gradient through an automatically chosen dt0.
#include <cmath>

#include "engine/integrate/rk_step.hpp"

namespace sg {

// ws.k[0] must hold f(y0). Uses ws.ytmp and ws.k[1] as scratch.
template <class System>
SG_HD double initial_step(const System& sys, const typename System::Scalar* y0, RkWorkspace<System>& ws,
                          int order, double rtol, double atol) {
  const int n = sys.dim();
  auto rms = [n](auto&& f) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += f(i) * f(i);
    return std::sqrt(s) / std::sqrt(static_cast<double>(n));  // optimistix's rms_norm
  };
  auto scale = [&](int i) { return atol + std::fabs(value(y0[i])) * rtol; };
  const double d0 = rms([&](int i) { return value(y0[i]) / scale(i); });
  const double d1 = rms([&](int i) { return value(ws.k[0][i]) / scale(i); });
  const double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  for (int i = 0; i < n; ++i) ws.ytmp[i] = y0[i] + h0 * ws.k[0][i];
  sys.rhs(ws.ytmp, ws.k[1]);
  const double d2 = rms([&](int i) { return value(ws.k[1][i] - ws.k[0][i]) / scale(i); }) / h0;
  const double dmax = std::fmax(d1, d2);
  const double h1 = dmax <= 1e-15 ? std::fmax(1e-6, 1e-3 * h0) : std::pow(0.01 / dmax, 1.0 / order);
  return std::fmin(100.0 * h0, h1);
}

}  // namespace sg
