#include "plots/sweep_figures/sweep2d_figure.hpp"

#include <cmath>
#include <functional>
#include <limits>

#include "engine/scene/readable_path.hpp"
#include "plots/heatmap.hpp"

namespace sg {
namespace {

plot::Plot map_of(const Grid2dResult& r, const std::string& title, bool diverging,
                  const std::function<double(const GridPoint&)>& field) {
  plot::Plot p;
  p.title = title;
  p.legend = false;
  plot::Heatmap& h = p.heatmap;
  h.nx = r.x.points;
  h.ny = r.y.points;
  h.x_from = r.x.from;
  h.x_to = r.x.to;
  h.y_from = r.y.from;
  h.y_to = r.y.to;
  h.diverging = diverging;
  for (long iy = 0; iy < r.y.points; ++iy)
    for (long ix = 0; ix < r.x.points; ++ix) h.values.push_back(field(r.at(ix, iy)));
  const plot::Range xe = plot::heat_x_edges(h), ye = plot::heat_y_edges(h);
  p.x.label = scene::readable_path(r.x.path);
  p.y.label = scene::readable_path(r.y.path);
  p.x.min = xe.lo;
  p.x.max = xe.hi;
  p.y.min = ye.lo;
  p.y.max = ye.hi;
  // The colour range in the title: the map has no colour bar.
  const plot::Range c = plot::heat_range(h);
  p.title += diverging
                 ? " (blue " + plot::format_tick(c.lo) + ", white 0, red " + plot::format_tick(c.hi) + ")"
                 : " (dark " + plot::format_tick(c.lo) + " to bright " + plot::format_tick(c.hi) + ")";
  return p;
}

}  // namespace

plot::Figure sweep2d_figure(const Problem& problem, const Grid2dResult& r) {
  plot::Figure f;
  f.title = problem.name + ": " + std::to_string(r.x.points) + " x " + std::to_string(r.y.points) + " grid";
  f.columns = 2;
  const std::string x = scene::readable_path(r.x.path), y = scene::readable_path(r.y.path);
  f.plots.push_back(map_of(r, "loss", false, [](const GridPoint& p) { return p.loss; }));
  f.plots.push_back(map_of(r, "AD: d loss / d " + x, true, [](const GridPoint& p) { return p.gx; }));
  f.plots.push_back(map_of(r, "AD: d loss / d " + y, true, [](const GridPoint& p) { return p.gy; }));
  f.plots.push_back(map_of(r, "log10 |AD - FD| / |gradient|", false, [](const GridPoint& p) {
    const double e = p.error();
    return std::isfinite(e) ? std::log10(std::max(e, 1e-16)) : std::numeric_limits<double>::quiet_NaN();
  }));
  return f;
}

}  // namespace sg
