#include "engine/optimize/fit.hpp"

#include <cmath>

#include <Eigen/Dense>

#include "engine/optimize/adam.hpp"

namespace sg {
namespace {

std::vector<double> scales_of(const std::vector<double>& start) {
  std::vector<double> s(start.size());
  for (std::size_t j = 0; j < start.size(); ++j) s[j] = start[j] != 0.0 ? std::fabs(start[j]) : 1.0;
  return s;
}

bool cancelled(const FitSettings& settings, FitResult& result) {
  if (!settings.cancel || !settings.cancel->load()) return false;
  result.stopped = "cancelled";
  return true;
}

// x + scale * dz, keeping parameters that started positive positive.
double moved(double x, double start, double scale, double dz) {
  const double x_new = x + scale * dz;
  return (start > 0.0 && x_new < 0.5 * x) ? 0.5 * x : x_new;
}

template <class Objective>
FitResult fit_adam(Objective& gradient, const std::vector<double>& start, const FitSettings& settings,
                   const std::function<void(const FitStep&)>& on_step) {
  FitResult result;
  const std::size_t n = start.size();
  const std::vector<double> scale = scales_of(start);
  std::vector<double> z(n, 0.0), x = start;
  std::vector<Adam> adam(n);
  const double decay =
      settings.steps > 1 ? std::pow(settings.lr_final / settings.lr, 1.0 / (settings.steps - 1)) : 1.0;
  double lr = settings.lr;
  result.stopped = "steps";
  for (int it = 0; it <= settings.steps; ++it) {
    const ObjectiveGradient g = settings.reverse ? gradient.reverse(x) : gradient.forward(x);
    result.runs += g.runs;
    FitStep step{it, g.loss, x, g.grad};
    result.path.push_back(step);
    if (on_step) on_step(step);
    if (g.status != "ok") {
      result.status = "step " + std::to_string(it) + ": " + g.status;
      return result;
    }
    if (g.loss <= settings.tolerance) {
      result.stopped = "tolerance";
      break;
    }
    if (it == settings.steps || cancelled(settings, result)) break;
    for (std::size_t j = 0; j < n; ++j) {
      adam[j].lr = lr;
      const double dz = adam[j].step(z[j], g.grad[j] * scale[j]) - z[j];
      x[j] = moved(x[j], start[j], scale[j], dz);
      z[j] = (x[j] - start[j]) / scale[j];
    }
    lr *= decay;
  }
  return result;
}

// The mean squared error and its gradient from residuals and their Jacobian (J in parameter units).
FitStep lm_step_record(int it, const std::vector<double>& x, const ResidualJacobian& rj, double samples) {
  const std::size_t n = x.size(), m = rj.r.size();
  FitStep s{it, 0.0, x, std::vector<double>(n, 0.0)};
  for (std::size_t i = 0; i < m; ++i) {
    s.loss += rj.r[i] * rj.r[i];
    for (std::size_t j = 0; j < n; ++j) s.grad[j] += 2.0 * rj.r[i] * rj.J[i * n + j];
  }
  s.loss /= samples;
  for (double& g : s.grad) g /= samples;
  return s;
}

template <class Objective>
FitResult fit_lm(Objective& gradient, const std::vector<double>& start, const FitSettings& settings,
                 const std::function<void(const FitStep&)>& on_step) {
  FitResult result;
  const std::size_t n = start.size();
  const std::vector<double> scale = scales_of(start);
  std::vector<double> x = start;
  ResidualJacobian rj = gradient.residuals(x);
  result.runs += rj.runs;
  if (rj.status != "ok") {
    result.status = "start: " + rj.status;
    return result;
  }
  const double samples = static_cast<double>(rj.r.size()) / 3.0;
  FitStep current = lm_step_record(0, x, rj, samples);
  result.path.push_back(current);
  if (on_step) on_step(current);
  double lambda = settings.lambda;
  result.stopped = "steps";
  for (int it = 1; it <= settings.steps; ++it) {
    if (current.loss <= settings.tolerance) {
      result.stopped = "tolerance";
      break;
    }
    if (cancelled(settings, result)) break;
    const Eigen::Index m = static_cast<Eigen::Index>(rj.r.size()), p = static_cast<Eigen::Index>(n);
    Eigen::MatrixXd J(m, p);
    Eigen::VectorXd r(m);
    for (Eigen::Index i = 0; i < m; ++i) {
      r(i) = rj.r[static_cast<std::size_t>(i)];
      for (Eigen::Index j = 0; j < p; ++j)
        J(i, j) = rj.J[static_cast<std::size_t>(i * p + j)] * scale[static_cast<std::size_t>(j)];
    }
    const Eigen::MatrixXd A = J.transpose() * J;
    const Eigen::VectorXd g = J.transpose() * r;
    bool accepted = false;
    for (int attempt = 0; attempt < 12 && !accepted; ++attempt) {
      Eigen::MatrixXd damped = A;
      for (Eigen::Index j = 0; j < p; ++j) damped(j, j) += lambda * (A(j, j) > 0.0 ? A(j, j) : 1.0);
      const Eigen::VectorXd dz = damped.ldlt().solve(-g);
      std::vector<double> trial = x;
      for (std::size_t j = 0; j < n; ++j)
        trial[j] = moved(x[j], start[j], scale[j], dz(static_cast<Eigen::Index>(j)));
      const double cost = gradient.objective(trial);
      ++result.runs;
      if (std::isfinite(cost) && cost < current.loss) {
        x = trial;
        lambda = std::max(lambda / 3.0, 1e-12);
        accepted = true;
      } else {
        lambda *= 4.0;
      }
    }
    if (!accepted) {
      result.stopped = "no further decrease";
      break;
    }
    rj = gradient.residuals(x);
    result.runs += rj.runs;
    if (rj.status != "ok") {
      result.status = "step " + std::to_string(it) + ": " + rj.status;
      return result;
    }
    const double previous = current.loss;
    current = lm_step_record(it, x, rj, samples);
    result.path.push_back(current);
    if (on_step) on_step(current);
    if (previous - current.loss <= 1e-15 * previous) {
      result.stopped = "no further decrease";
      break;
    }
  }
  return result;
}

template <class Objective>
FitResult fit_with(Objective& gradient, const std::vector<double>& start, const FitSettings& settings,
                   const std::function<void(const FitStep&)>& on_step) {
  return settings.method == FitMethod::lm ? fit_lm(gradient, start, settings, on_step)
                                          : fit_adam(gradient, start, settings, on_step);
}

}  // namespace

FitResult fit_parameters(ParameterGradient& gradient, const std::vector<double>& start,
                         const FitSettings& settings, const std::function<void(const FitStep&)>& on_step) {
  gradient.set_threads(settings.threads);
  return fit_with(gradient, start, settings, on_step);
}

FitResult fit_parameters(Rollouts& rollouts, const std::vector<double>& start, const FitSettings& settings,
                         const std::function<void(const FitStep&)>& on_step) {
  rollouts.set_threads(settings.threads);
  return fit_with(rollouts, start, settings, on_step);
}

}  // namespace sg
