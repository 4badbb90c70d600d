#include "plots/sweep_figures/toss_replay_figure.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/quat.hpp"

namespace sg {

TossState toss_state(const double pos[3], const double quat[4]) {
  const Mat3<double> r = to_mat3(normalized(Quat<double>(quat[0], quat[1], quat[2], quat[3])));
  TossState s{};
  for (int k = 0; k < 12; ++k)
    s[static_cast<std::size_t>(k)] = k < 3 ? pos[k] : r.m[(k - 3) / 3][(k - 3) % 3];
  return s;
}

namespace {

// The angle (degrees) of the rotation from `first` to `now`: acos((trace(first^T now) - 1) / 2).
double turned_degrees(const TossState& first, const TossState& now) {
  double trace = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) trace += first[3 + 3 * k + i] * now[3 + 3 * k + i];
  const double c = std::clamp((trace - 1.0) / 2.0, -1.0, 1.0);
  return std::acos(c) * 180.0 / 3.14159265358979323846;
}

plot::Series line(const std::string& name, const std::vector<double>& t, const std::vector<TossState>& states,
                  const TossState& first, int what, bool dashed) {
  plot::Series s;
  s.name = name;
  s.dashed = dashed;
  for (std::size_t i = 0; i < states.size() && i < t.size(); ++i) {
    s.x.push_back(t[i]);
    s.y.push_back(what < 3 ? states[i][static_cast<std::size_t>(what)] : turned_degrees(first, states[i]));
  }
  return s;
}

}  // namespace

plot::Figure toss_replay_figure(const std::string& title, const std::vector<double>& t,
                                const std::vector<TossState>& measured,
                                const std::vector<TossRollout>& rollouts) {
  plot::Figure figure;
  figure.title = title;
  figure.columns = 2;
  if (measured.empty()) return figure;
  const TossState& first = measured.front();
  plot::Plot position;
  position.title = "centre (measured dashed)";
  position.x.label = "t (s)";
  position.y.label = "m";
  const char* axes[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a)
    position.series.push_back(line(std::string("measured ") + axes[a], t, measured, first, a, true));
  for (const TossRollout& r : rollouts)
    for (int a = 0; a < 3; ++a)
      position.series.push_back(line(r.label + " " + axes[a], t, r.states, first, a, false));
  plot::Plot angle;
  angle.title = "turned since the first frame";
  angle.x.label = "t (s)";
  angle.y.label = "degrees";
  angle.series.push_back(line("measured", t, measured, first, 3, true));
  for (const TossRollout& r : rollouts) angle.series.push_back(line(r.label, t, r.states, first, 3, false));
  figure.plots.push_back(position);
  figure.plots.push_back(angle);
  return figure;
}

}  // namespace sg
