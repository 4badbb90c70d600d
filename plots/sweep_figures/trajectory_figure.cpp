#include "plots/sweep_figures/trajectory_figure.hpp"

#include <cmath>
#include <string>

namespace sg {
namespace {

plot::Series coordinate(const std::string& name, const std::vector<double>& t,
                        const std::vector<std::vector<double>>& rows, std::size_t index) {
  plot::Series s;
  s.name = name;
  s.x = t;
  for (const auto& row : rows) s.y.push_back(index < row.size() ? row[index] : std::nan(""));
  return s;
}

plot::Plot time_plot(const std::string& title, const std::string& ylabel) {
  plot::Plot p;
  p.title = title;
  p.x.label = "t [s]";
  p.y.label = ylabel;
  return p;
}

}  // namespace

plot::Figure trajectory_figure(const Trajectory& tr, int particle) {
  plot::Figure fig;
  fig.title = "Trajectory";
  fig.columns = 2;
  // Particles: 3 entries per particle in q and v. Rigid bodies: q = pos (3) + quat (4), v = linear (3) +
  // angular (3) per body; `particle` is then the body index and the plots show its centre and linear
  // velocity.
  const bool rigid = tr.layout != "particles";  // rigid and tree bodies share a layout
  const auto q_base = static_cast<std::size_t>((rigid ? 7 : 3) * particle);
  const auto v_base = static_cast<std::size_t>((rigid ? 6 : 3) * particle);
  const std::string who = rigid ? "Body " + std::to_string(particle) + ": " : "";
  const char* axes[3] = {"x", "y", "z"};
  plot::Plot pos = time_plot(who + "Position", rigid ? "p [m]" : "q [m]");
  plot::Plot vel = time_plot(who + "Velocity", "v [m/s]");
  for (std::size_t k = 0; k < 3; ++k) {
    pos.series.push_back(coordinate(axes[k], tr.t, tr.q, q_base + k));
    vel.series.push_back(coordinate(axes[k], tr.t, tr.v, v_base + k));
  }
  plot::Plot force = time_plot(who + "Normal contact force", "f [N]");
  force.series.push_back(
      coordinate(rigid ? "sum of f_n" : "f_n", tr.t, tr.force, static_cast<std::size_t>(particle)));
  force.legend = false;
  plot::Plot steps = time_plot("Accepted step sizes", "h [s]");
  steps.y.scale = plot::Scale::log;
  plot::Series h;
  h.name = "h";
  h.style = plot::SeriesStyle::line_and_markers;
  double t = 0.0;
  for (double dt : tr.dt) {
    t += dt;
    h.x.push_back(t);
    h.y.push_back(dt);
  }
  steps.series.push_back(h);
  steps.legend = false;
  fig.plots = {pos, vel, force, steps};
  return fig;
}

}  // namespace sg
