#include "engine/optimize/fit.hpp"
#include "engine/optimize/identifiability.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Dense>

#include "engine/optimize/adam.hpp"
#include "engine/optimize/toss_segments.hpp"
#include "engine/scene/describe.hpp"

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

scene::KeyRange range_of(const FitSettings& settings, std::size_t j) {
  return settings.bounds.empty() ? scene::KeyRange{} : settings.bounds[j];
}

bool is_fixed(const FitSettings& settings, std::size_t j) {
  return !settings.fixed.empty() && settings.fixed[j];
}

// x + scale * dz, keeping parameters that started positive positive and every parameter in its range: on a
// closed end at most, half the way to an open one at most.
double moved(double x, double start, double scale, double dz, const scene::KeyRange& range) {
  double x_new = x + scale * dz;
  if (start > 0.0 && x_new < 0.5 * x) x_new = 0.5 * x;
  return range.step_toward(x, x_new);
}

// On a closed end with the descent direction (-g) pointing out of the range.
bool held_on_bound(double x, double g, const scene::KeyRange& range) {
  return (!range.min_open && x <= range.min && g > 0.0) || (!range.max_open && x >= range.max && g < 0.0);
}

// The standard errors at x from the residuals and their Jacobian there (FitResult): s^2 (J^T J)^-1, taken
// through the eigenvectors of J^T J scaled to a unit diagonal so that a direction the data do not see gives
// infinite errors to the parameters along it instead of a huge number from rounding.
void fill_uncertainty(const ResidualJacobian& rj, const std::vector<double>& x, const FitSettings& settings,
                      FitResult& result) {
  const Eigen::Index m = static_cast<Eigen::Index>(rj.r.size()), p = static_cast<Eigen::Index>(x.size());
  const double inf = std::numeric_limits<double>::infinity();
  result.std_error.assign(x.size(), inf);
  result.at_bound.assign(x.size(), false);
  for (std::size_t j = 0; j < x.size(); ++j) {
    const scene::KeyRange r = range_of(settings, j);
    result.at_bound[j] = (!r.min_open && x[j] == r.min) || (!r.max_open && x[j] == r.max);
  }
  if (m <= p || p == 0) return;
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> J(
      rj.J.data(), m, p);
  const Eigen::Map<const Eigen::VectorXd> r(rj.r.data(), m);
  const double s2 = r.squaredNorm() / static_cast<double>(m - p);
  result.residual_sigma = std::sqrt(s2);
  const Eigen::MatrixXd A = J.transpose() * J;
  Eigen::VectorXd d(p);
  for (Eigen::Index j = 0; j < p; ++j) d(j) = A(j, j) > 0.0 ? 1.0 / std::sqrt(A(j, j)) : 0.0;
  const Eigen::MatrixXd C = d.asDiagonal() * A * d.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(C);
  if (eig.info() != Eigen::Success) return;
  const double largest = eig.eigenvalues().maxCoeff();
  // C's inverse over the directions the data see; a number with a part along one they do not is unseen.
  Eigen::VectorXd inverse_lambda(p);
  std::vector<bool> seen(x.size(), true);
  for (Eigen::Index k = 0; k < p; ++k) {
    const double lambda = eig.eigenvalues()(k);
    inverse_lambda(k) = lambda > 1e-12 * largest ? 1.0 / lambda : 0.0;
    if (inverse_lambda(k) != 0.0) continue;
    for (Eigen::Index j = 0; j < p; ++j)
      if (std::fabs(eig.eigenvectors()(j, k)) > 1e-6) seen[static_cast<std::size_t>(j)] = false;
  }
  const Eigen::MatrixXd V = eig.eigenvectors();
  const Eigen::MatrixXd C_inv = V * inverse_lambda.asDiagonal() * V.transpose();
  for (Eigen::Index j = 0; j < p; ++j) {
    if (d(j) == 0.0) seen[static_cast<std::size_t>(j)] = false;  // the data do not depend on it at all
    if (seen[static_cast<std::size_t>(j)])
      result.std_error[static_cast<std::size_t>(j)] = std::sqrt(s2 * C_inv(j, j)) * d(j);
  }
  result.correlation.assign(x.size() * x.size(), std::numeric_limits<double>::quiet_NaN());
  for (Eigen::Index i = 0; i < p; ++i)
    for (Eigen::Index j = 0; j < p; ++j)
      if (seen[static_cast<std::size_t>(i)] && seen[static_cast<std::size_t>(j)])
        result.correlation[static_cast<std::size_t>(i * p + j)] =
            C_inv(i, j) / std::sqrt(C_inv(i, i) * C_inv(j, j));
}

template <class Objective>
FitResult fit_adam(Objective& gradient, const std::vector<double>& start, const FitSettings& settings,
                   const std::function<void(const FitStep&)>& on_step) {
  FitResult result;
  const std::size_t n = start.size();
  const std::vector<double> scale = scales_of(start);
  std::vector<double> z(n, 0.0), x = start;
  std::vector<Adam> adam(n);
  for (Adam& a : adam) a.beta1 = settings.beta1, a.beta2 = settings.beta2, a.eps = settings.adam_eps;
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
      if (is_fixed(settings, j)) continue;
      adam[j].lr = lr;
      const double dz = adam[j].step(z[j], g.grad[j] * scale[j]) - z[j];
      x[j] = moved(x[j], start[j], scale[j], dz, range_of(settings, j));
      z[j] = (x[j] - start[j]) / scale[j];
    }
    lr *= decay;
  }
  if (settings.uncertainty && result.stopped != "cancelled") {
    const ResidualJacobian rj = gradient.residuals(x);
    result.runs += rj.runs;
    if (rj.status == "ok") fill_uncertainty(rj, x, settings, result);
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

// Marquardt's step: (A + lambda diag(A)) dz = -g, with the held parameters' dz 0.
Eigen::VectorXd damped_step(const Eigen::MatrixXd& A, const Eigen::VectorXd& g, const std::vector<bool>& held,
                            double lambda) {
  Eigen::MatrixXd damped = A;
  Eigen::VectorXd rhs = -g;
  for (Eigen::Index j = 0; j < A.rows(); ++j) {
    damped(j, j) += lambda * (A(j, j) > 0.0 ? A(j, j) : 1.0);
    if (!held[static_cast<std::size_t>(j)]) continue;
    damped.row(j).setZero();
    damped.col(j).setZero();
    damped(j, j) = 1.0;
    rhs(j) = 0.0;
  }
  return damped.ldlt().solve(rhs);
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
  const double samples = static_cast<double>(rj.samples);
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
    std::vector<bool> held(n);
    for (std::size_t j = 0; j < n; ++j)
      held[j] = is_fixed(settings, j) ||
                held_on_bound(x[j], g(static_cast<Eigen::Index>(j)), range_of(settings, j));
    if (std::all_of(held.begin(), held.end(), [](bool h) { return h; })) {
      result.stopped = "every number held";  // fixed, or on a bound the error pulls past
      break;
    }
    bool accepted = false;
    for (int attempt = 0; attempt < 12 && !accepted; ++attempt) {
      const Eigen::VectorXd dz = damped_step(A, g, held, lambda);
      std::vector<double> trial = x;
      for (std::size_t j = 0; j < n; ++j)
        trial[j] = moved(x[j], start[j], scale[j], dz(static_cast<Eigen::Index>(j)), range_of(settings, j));
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
    if (previous - current.loss <= settings.min_decrease * previous) {
      result.stopped = "no further decrease";
      break;
    }
  }
  fill_uncertainty(rj, x, settings, result);
  return result;
}

template <class Objective>
FitResult fit_with(Objective& gradient, const std::vector<double>& start, const FitSettings& settings,
                   const std::function<void(const FitStep&)>& on_step) {
  if (!settings.bounds.empty() && settings.bounds.size() != start.size())
    throw std::invalid_argument("fit: " + std::to_string(settings.bounds.size()) + " bounds for " +
                                std::to_string(start.size()) + " parameters");
  if (!settings.fixed.empty() && settings.fixed.size() != start.size())
    throw std::invalid_argument("fit: " + std::to_string(settings.fixed.size()) + " fixed flags for " +
                                std::to_string(start.size()) + " parameters");
  for (std::size_t j = 0; j < settings.bounds.size(); ++j)
    if (!settings.bounds[j].contains(start[j])) {
      FitResult refused;
      refused.status = "parameter " + std::to_string(j + 1) + ": the start " +
                       scene::format_number(start[j]) + " is outside its range (" +
                       settings.bounds[j].text() + ")";
      return refused;
    }
  FitResult result = settings.method == FitMethod::lm ? fit_lm(gradient, start, settings, on_step)
                                                      : fit_adam(gradient, start, settings, on_step);
  if (result.status == "ok") result.not_identified = identification_problems(result, start, settings);
  return result;
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

FitResult fit_parameters(TossObjective& tosses, const std::vector<double>& start, const FitSettings& settings,
                         const std::function<void(const FitStep&)>& on_step) {
  tosses.set_threads(settings.threads);
  return fit_with(tosses, start, settings, on_step);
}

}  // namespace sg
