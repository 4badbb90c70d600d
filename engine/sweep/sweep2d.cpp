#include "engine/sweep/sweep2d.hpp"
#include "engine/core/caller_priority_arena.hpp"
#include "engine/problem/json_number.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"

namespace sg {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_axis(const GridAxis& a, const char* option) {
  if (!(a.points >= 2 && a.points <= 1000))
    throw std::invalid_argument(std::string(option) + ": N must be 2 to 1000 (got " +
                                std::to_string(a.points) + ")");
  if (!(std::isfinite(a.from) && std::isfinite(a.to) && a.from < a.to))
    throw std::invalid_argument(std::string(option) + ": needs finite FROM < TO");
}

GridPoint evaluate(ParameterGradient& g, double x, double y, double eps) {
  GridPoint p;
  const ObjectiveGradient ad = g.forward({x, y});
  p.loss = ad.loss;
  p.gx = ad.grad[0];
  p.gy = ad.grad[1];
  if (ad.status != "ok") p.status = ad.status;
  const double xs[4] = {x + eps, x - eps, x, x}, ys[4] = {y, y, y + eps, y - eps};
  double f[4];
  for (int k = 0; k < 4; ++k) {
    SolveStats st;
    f[k] = g.objective({xs[k], ys[k]}, &st);
    if (st.status != Status::ok && p.status == "ok") p.status = "finite difference: " + describe_failure(st);
  }
  p.gx_fd = (f[0] - f[1]) / (2.0 * eps);
  p.gy_fd = (f[2] - f[3]) / (2.0 * eps);
  return p;
}

}  // namespace

double GridPoint::error() const {
  const double dx = gx - gx_fd, dy = gy - gy_fd;
  const double scale = std::max(std::hypot(gx, gy), std::hypot(gx_fd, gy_fd));
  if (!std::isfinite(dx) || !std::isfinite(dy)) return kNaN;
  return scale > 0.0 ? std::hypot(dx, dy) / scale : 0.0;
}

void check_grid(const Problem& problem, const GridAxis& x, const GridAxis& y) {
  check_axis(x, "--x");
  check_axis(y, "--y");
  if (x.path == y.path) throw std::invalid_argument("--y: the same path as --x (" + x.path + ")");
  ParameterGradient probe(problem, {x.path, y.path}, nullptr);  // throws "PATH: why" for a bad path
}

Grid2dResult run_sweep2d(const Problem& problem, const GridAxis& x, const GridAxis& y,
                         const Grid2dControl& control) {
  check_grid(problem, x, y);
  const auto start = std::chrono::steady_clock::now();
  Grid2dResult result;
  result.x = x;
  result.y = y;
  const long n = x.points * y.points;
  result.points.resize(static_cast<std::size_t>(n));
  const double eps = problem.gradient.fd_eps;
  CallerPriorityArena arena(CallerPriorityArena::loop_threads(control.threads));
  arena.parallel_ranges(n, 4L, [&](long begin, long end) {
    ParameterGradient g(problem, {x.path, y.path}, nullptr);
    for (long i = begin; i < end; ++i) {
      GridPoint& p = result.points[static_cast<std::size_t>(i)];
      const long ix = i % x.points, iy = i / x.points;
      if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
        p = GridPoint{kNaN, kNaN, kNaN, kNaN, kNaN, "cancelled"};
        continue;
      }
      p = evaluate(g, x.value_at(ix), y.value_at(iy), eps);
      if (control.completed) control.completed->fetch_add(1, std::memory_order_relaxed);
      if (control.on_point) control.on_point(ix, iy, p);
    }
  });
  for (const GridPoint& p : result.points) {
    if (p.status != "ok") ++result.failed;
    if (p.status == "cancelled") result.cancelled = true;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

nlohmann::json sweep2d_to_json(const Problem& problem, const Grid2dResult& r) {
  using nlohmann::json;
  auto grid = [&](auto field) {
    json rows = json::array();
    for (long iy = 0; iy < r.y.points; ++iy) {
      json row = json::array();
      for (long ix = 0; ix < r.x.points; ++ix) row.push_back(field(r.at(ix, iy)));
      rows.push_back(row);
    }
    return rows;
  };
  auto axis = [](const GridAxis& a) {
    json values = json::array();
    for (long i = 0; i < a.points; ++i) values.push_back(a.value_at(i));
    return json{{"path", a.path}, {"values", values}};
  };
  return {{"scene", problem.name},
          {"x", axis(r.x)},
          {"y", axis(r.y)},
          {"loss", grid([](const GridPoint& p) { return number_or_null(p.loss); })},
          {"grad_x", grid([](const GridPoint& p) { return number_or_null(p.gx); })},
          {"grad_y", grid([](const GridPoint& p) { return number_or_null(p.gy); })},
          {"grad_x_fd", grid([](const GridPoint& p) { return number_or_null(p.gx_fd); })},
          {"grad_y_fd", grid([](const GridPoint& p) { return number_or_null(p.gy_fd); })},
          {"error", grid([](const GridPoint& p) { return number_or_null(p.error()); })},
          {"status", grid([](const GridPoint& p) { return json(p.status); })},
          {"stats",
           {{"points", r.points.size()},
            {"seconds", r.seconds},
            {"failed", r.failed},
            {"cancelled", r.cancelled}}},
          {"config", problem.config}};
}

}  // namespace sg
