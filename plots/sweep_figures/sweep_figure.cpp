#include "plots/sweep_figures/sweep_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/gradient/reference.hpp"
#include "engine/scene/readable_path.hpp"
#include "engine/sweep/gradient_agreement.hpp"
#include "plots/axis_math.hpp"

namespace sg {
namespace {

// Points not computed (yet, or cancelled: a sweep runs coarse to fine) are left out, so that the line joins
// the computed ones; a failed point's NaN still breaks it.
template <class F>
plot::Series column(const std::string& name, const SweepResult& r, F&& pick) {
  plot::Series s;
  s.name = name;
  for (const PointResult& p : r.points) {
    if (p.status == "pending" || p.status == "cancelled") continue;
    s.x.push_back(p.value);
    s.y.push_back(pick(p));
  }
  return s;
}

// Gradient axis: a single jump of the loss makes one finite difference huge, so the axis autofits robustly
// (outliers marked at the edge, plots/axis_math.hpp). Its symlog threshold is a decade near the typical
// magnitude, so the one-click symlog reads well, and symlog is the default when the gradients themselves span
// orders of magnitude.
void fit_gradient_axis(plot::Axis& axis, const std::vector<plot::Series>& series) {
  axis.robust = true;
  std::vector<double> mags;
  for (const plot::Series& s : series)
    for (double g : s.y)
      if (std::isfinite(g) && g != 0.0) mags.push_back(std::fabs(g));
  if (mags.empty()) return;
  const double typical = plot::quantile(mags, 0.5), large = plot::quantile(mags, 0.99);
  axis.symlog_threshold = std::pow(10.0, std::floor(std::log10(typical)));
  if (large / typical > 1e3) axis.scale = plot::Scale::symlog;
}

}  // namespace

namespace {

// What the AD curve is, so a figure names it next to its reference.
std::string ad_label(const Problem& problem) {
  if (problem.gradient.backsolve) {
    // The continuous ODE's derivative: no steps to freeze.
    return std::string("AD (backsolve: continuous adjoint") +
           (straight_through_cfd(problem) ? ", CFD surrogate)" : ")");
  }
  std::string label = problem.gradient.reverse ? "AD (reverse mode" : "AD (forward mode";
  if (straight_through_cfd(problem)) label += ", CFD surrogate";
  if (is_adaptive(problem.integrator.method))
    label += problem.integrator.through_controller ? ", through the controller" : ", frozen steps";
  return label + ")";
}

GradientSettings with_reference(GradientSettings g, Reference r) {
  g.reference = r;
  return g;
}

}  // namespace

plot::Figure sweep_figure(const Problem& problem, const SweepResult& result) {
  plot::Figure fig;
  // Axis labels read as names, with the dotted path (what --set takes) after them.
  const std::string name = scene::readable_path(problem.sweep.parameter);
  const std::string x_label = name + "  (" + problem.sweep.parameter + ")";
  fig.title = problem.name + ": sweep of " + name;
  const bool smoothing = problem.gradient.smoothing.samples > 0;

  plot::Plot loss;
  loss.title = "Loss";
  loss.x.label = x_label;
  loss.y.label = "loss";
  loss.series.push_back(column("loss", result, [](const PointResult& p) { return p.loss; }));
  if (smoothing)
    loss.series.push_back(
        column("smoothed loss", result, [](const PointResult& p) { return p.loss_smoothed; }));

  plot::Plot grad;
  grad.title = "Gradient";
  grad.x.label = x_label;
  grad.y.label = "d loss / d " + name;
  const bool surrogate = straight_through_cfd(problem);
  const GradientSettings& gs = problem.gradient;
  plot::Series fd = column(reference_label(with_reference(gs, Reference::fd), problem.integrator, surrogate),
                           result, [](const PointResult& p) { return p.grad_fd; });
  fd.dashed = true;
  grad.series.push_back(column(ad_label(problem), result, [](const PointResult& p) { return p.grad; }));
  grad.series.push_back(fd);
  const Reference reference = gs.reference;
  if (reference != Reference::fd) {
    plot::Series ref = column("reference: " + reference_label(gs, problem.integrator, surrogate), result,
                              [](const PointResult& p) { return p.grad_ref; });
    // Wide and beneath the AD curve (the two coincide where AD is right), in the palette's third colour so
    // that AD and FD keep theirs.
    ref.width = 3.0f;
    ref.auto_color = false;
    ref.color = plot::palette_color(2);
    grad.series.insert(grad.series.begin(), ref);
  }
  if (smoothing) {
    grad.series.push_back(
        column("zeroth-order MC", result, [](const PointResult& p) { return p.grad_zeroth; }));
    grad.series.push_back(
        column("first-order MC", result, [](const PointResult& p) { return p.grad_first; }));
  }
  fit_gradient_axis(grad.y, grad.series);

  // The points where AD is off its reference (kOffThreshold), marked on the gradient panel over the AD curve.
  const double zero = gradient_zero_level(result.points, reference);
  plot::Series off;
  off.name = "AD off the " + std::string(reference == Reference::fd ? "FD" : "reference") + " by >10%";
  off.style = plot::SeriesStyle::markers;
  off.auto_color = false;
  off.color = {230, 120, 20, 255};
  for (const PointResult& p : result.points)
    if (compare_gradient(p, reference, zero).off) {
      off.x.push_back(p.value);
      off.y.push_back(p.grad);
    }
  // Under straight-through CFD the AD curve is the surrogate's and FD the plain model's: they differ by
  // design, so only a tight reference (ad_tight) gets markers there.
  const bool like_for_like = !(surrogate && reference == Reference::fd);
  if (!off.x.empty() && like_for_like) {
    off.name += " (" + std::to_string(off.x.size()) + ")";
    grad.series.push_back(off);
  }

  plot::Plot err;
  const std::string ref_name = reference == Reference::fd ? "FD" : "reference";
  err.title = "Relative gradient difference |AD - " + ref_name + "| / max(|AD|, |" + ref_name + "|)";
  err.x.label = x_label;
  err.y.label = "relative difference (both zero: not drawn)";
  err.y.scale = plot::Scale::log;
  err.series.push_back(column("relative difference", result, [reference, zero](const PointResult& p) {
    const PointAgreement a = compare_gradient(p, reference, zero);
    return a.kind == AgreementKind::compared ? a.relative : std::nan("");
  }));
  err.legend = false;

  fig.plots = {loss, grad, err};
  return fig;
}

}  // namespace sg
