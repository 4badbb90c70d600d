#include "plots/sweep_figures/mpc_figure.hpp"

#include <cmath>

namespace sg {
namespace {

plot::Plot time_plot(const std::string& title, const std::string& ylabel, bool log) {
  plot::Plot p;
  p.title = title;
  p.x.label = "t [s]";
  p.y.label = ylabel;
  if (log) p.y.scale = plot::Scale::log;
  return p;
}

plot::Series line(const std::string& name, bool markers = false) {
  plot::Series s;
  s.name = name;
  s.style = markers ? plot::SeriesStyle::line_and_markers : plot::SeriesStyle::line;
  return s;
}

}  // namespace

plot::Figure mpc_figure(const std::vector<LabelledMpc>& runs, double success) {
  plot::Figure fig;
  fig.title = "Model-predictive control";
  fig.columns = 2;
  plot::Plot cost = time_plot("Task cost (executed)", "loss", true);
  plot::Plot planned = time_plot("Plan cost (mpc.cost)", "loss", true);
  plot::Plot norm = time_plot("Gradient norm, unclipped", "|dL/du|", true);
  plot::Plot ctrl = time_plot("Controls (executed)", "ctrl", false);
  for (const LabelledMpc& run : runs) {
    const MpcResult& r = *run.result;
    plot::Series c = line(run.label);
    c.x = r.t, c.y = r.cost;
    cost.series.push_back(c);
    plot::Series p = line(run.label, true);
    plot::Series n = line(run.label, true);
    for (const PlanningStep& s : r.steps) {
      p.x.push_back(s.time), p.y.push_back(s.cost);
      if (r.planner == Planner::gradient) n.x.push_back(s.time), n.y.push_back(s.grad_norm);
    }
    planned.series.push_back(p);
    if (!n.x.empty()) norm.series.push_back(n);
    const std::size_t actuators = r.ctrl.empty() ? 0 : r.ctrl.front().size();
    for (std::size_t a = 0; a < actuators; ++a) {
      plot::Series u = line(run.label + ": actuator " + std::to_string(a));
      for (std::size_t i = 0; i < r.ctrl.size(); ++i) u.x.push_back(r.t[i]), u.y.push_back(r.ctrl[i][a]);
      ctrl.series.push_back(u);
    }
  }
  if (success > 0.0 && !runs.empty() && !runs.front().result->t.empty()) {
    plot::Series bar = line("success threshold");
    bar.dashed = true;
    bar.auto_color = false;
    bar.color = {120, 120, 120, 255};
    bar.x = {runs.front().result->t.front(), runs.front().result->t.back()};
    bar.y = {success, success};
    cost.series.push_back(bar);
  }
  fig.plots = {cost, planned, norm, ctrl};
  return fig;
}

}  // namespace sg
