#pragma once
// Adam (Kingma and Ba) on one scalar parameter, as used by the DiffMJX billiards experiment (lr 0.1).
#include <cmath>

namespace sg {

struct Adam {
  double lr = 0.1, beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double m = 0.0, v = 0.0;
  int t = 0;

  // The parameter after one step along the gradient g.
  double step(double x, double g) {
    ++t;
    m = beta1 * m + (1.0 - beta1) * g;
    v = beta2 * v + (1.0 - beta2) * g * g;
    const double m_hat = m / (1.0 - std::pow(beta1, t));
    const double v_hat = v / (1.0 - std::pow(beta2, t));
    return x - lr * m_hat / (std::sqrt(v_hat) + eps);
  }
};

}  // namespace sg
