#pragma once
// PID step-size controller, as Diffrax 0.7.2's PIDController (engine-notes section 3): the scaled RMS error,
// factor = safety * e_n^-(p+i+d)/k * e_{n-1}^((p+2d)/k) * e_{n-2}^(-d/k), an accepted step never shrinks
// (factor in [1, factor_max]) and a rejected one shrinks by at least reject_factor_max (Diffrax's bound is
// safety; both are 0.9 by default). The history advances on accepted steps only.
#include <cmath>

#include "engine/core/scalar.hpp"
#include "engine/integrate/settings.hpp"

namespace sg {

// eps = RMS(err_i / (atol + rtol max(|y0_i|, |y1_i|))); the step is accepted when eps < 1. The RMS is
// optimistix's rms_norm, sqrt(sum) / sqrt(n), so that the rounding matches too.
template <class S>
SG_HD S scaled_error(const S* y0, const S* y1, const S* err, int n, double rtol, double atol) {
  S sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const S scale = atol + max(abs(y0[i]), abs(y1[i])) * rtol;
    sum += sq(err[i] / scale);
  }
  return sqrt(sum) / std::sqrt(static_cast<double>(n));
}

// H = double (frozen steps) or the system's scalar (through the controller).
template <class H, class S>
SG_HD inline H as_step(const S& x) {
  if constexpr (is_dual_v<H>) {
    return x;
  } else {
    return value(x);
  }
}

// The error norm as the controller's scalar H. With frozen steps only its value decides acceptance, so a
// taped run records nothing for it.
template <class H, class S>
SG_HD H step_error(const S* y0, const S* y1, const S* err, int n, double rtol, double atol) {
  const TapePause<S> values_only(!is_dual_v<H>);
  return as_step<H>(scaled_error(y0, y1, err, n, rtol, atol));
}

// The same norm over each tangent lane of a dual state (err, y0, y1 the lane's derivatives), the largest
// lane's; 0 for plain doubles.
template <class S>
SG_HD double scaled_tangent_error(const S* y0, const S* y1, const S* err, int n, double rtol, double atol) {
  double worst = 0.0;
  if constexpr (ScalarTraits<S>::lanes > 0) {
    for (int l = 0; l < ScalarTraits<S>::lanes; ++l) {
      double sum = 0.0;
      for (int i = 0; i < n; ++i) {
        const double scale = atol + rtol * std::fmax(std::fabs(y0[i].d[l]), std::fabs(y1[i].d[l]));
        const double e = err[i].d[l] / scale;
        sum += e * e;
      }
      const double lane = std::sqrt(sum) / std::sqrt(static_cast<double>(n));
      if (!(lane <= worst)) worst = lane;  // a NaN lane wins, and the step is rejected
    }
  } else {
    (void)y0, (void)y1, (void)err, (void)n, (void)rtol, (void)atol;
  }
  return worst;
}

// H is double when step sizes are frozen for differentiation, or the dual type when the gradient goes
// through the controller.
template <class H>
struct PidController {
  ControllerSettings cfg;
  int order = 5;
  H prev_inv_err = 1.0;       // 1/eps of the last accepted step
  H prev_prev_inv_err = 1.0;  // and the one before

  // factor_min: the smallest shrink of a rejection (cfg.factor_min unless the caller knows the error is not
  // asymptotic, as right after a contact switch).
  SG_HD H factor(const H& eps, bool accepted) const { return factor(eps, accepted, cfg.factor_min); }
  SG_HD H factor(const H& eps, bool accepted, double factor_min) const {
    const double k = static_cast<double>(order);
    H f;
    if (!(eps > 0.0)) {
      f = H(cfg.factor_max);
    } else {
      const H inv = 1.0 / eps;
      const double b1 = (cfg.pcoeff + cfg.icoeff + cfg.dcoeff) / k;
      const double b2 = -(cfg.pcoeff + 2.0 * cfg.dcoeff) / k;
      const double b3 = cfg.dcoeff / k;
      f = cfg.safety * pow(inv, b1);
      if (b2 != 0.0) f = f * pow(prev_inv_err, b2);
      if (b3 != 0.0) f = f * pow(prev_prev_inv_err, b3);
    }
    if (accepted) return clamp(f, 1.0, cfg.factor_max);
    return clamp(f, factor_min, cfg.reject_factor_max);
  }

  // An error of exactly zero (1/eps infinite) enters the history as 1, as in Diffrax: the P and D terms of
  // the next steps then neither grow nor shrink them.
  SG_HD void on_accept(const H& eps) {
    prev_prev_inv_err = prev_inv_err;
    const double inv = 1.0 / value(eps);
    prev_inv_err = (inv > 0.0 && isfinite(inv)) ? H(1.0 / eps) : H(1.0);
  }
};

}  // namespace sg
