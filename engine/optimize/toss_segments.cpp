#include "engine/optimize/toss_segments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/core/quat.hpp"
#include "engine/gradient/helper_threads.hpp"
#include "engine/scene/suggest.hpp"

namespace sg {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kDtTolerance = 1e-6;  // relative, between integrator.dt and the frames' spacing

// Body 0's start numbers a measured frame sets, in this order.
const std::vector<std::string>& start_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> p;
    for (const char* key : {"pos", "euler", "vel", "angvel"})
      for (int k = 0; k < 3; ++k) p.push_back("model.bodies.0." + std::string(key) + "." + std::to_string(k));
    return p;
  }();
  return paths;
}

std::vector<double> start_of(const TossFrame& f) {
  double euler[3];
  euler_xyz_degrees(f.quat, euler);
  return {f.pos[0], f.pos[1], f.pos[2], euler[0],    euler[1],    euler[2],
          f.vel[0], f.vel[1], f.vel[2], f.angvel[0], f.angvel[1], f.angvel[2]};
}

// The measured rotation: the file's quaternion normalised (its digits leave |q| - 1 at about 1e-10).
Mat3<double> rotation_of(const double q[4]) {
  return to_mat3(normalized(Quat<double>(q[0], q[1], q[2], q[3])));
}

PositionSample sample_of(const TossFrame& f) {
  PositionSample s;
  for (int k = 0; k < 3; ++k) s.pos[k] = f.pos[k];
  const Mat3<double> r = rotation_of(f.quat);
  s.has_rotation = true;
  for (int k = 0; k < 9; ++k) s.rot[k] = r.m[k / 3][k % 3];
  return s;
}

}  // namespace

void euler_xyz_degrees(const double quat[4], double euler[3]) {
  const Mat3<double> r = rotation_of(quat);
  // R = Rx(a) Ry(b) Rz(c): R02 = sin b, R12 = -sin a cos b, R22 = cos a cos b. Near the gimbal lock (cos b
  // -> 0) a is poorly determined, so c is taken from what remains, Rz(c) = Ry(b)^T Rx(a)^T R, which absorbs
  // a's error: the angles give R back to rounding everywhere.
  constexpr double kDeg = 180.0 / 3.14159265358979323846;
  const double a = std::atan2(-r.m[1][2], r.m[2][2]);
  const double b = std::atan2(r.m[0][2], std::hypot(r.m[1][2], r.m[2][2]));
  const Mat3<double> turn = to_mat3(from_euler_xyz(a * kDeg, b * kDeg, 0.0));
  double m00 = 0.0, m10 = 0.0;  // (turn^T R) entries 00 and 10
  for (int k = 0; k < 3; ++k) {
    m00 += turn.m[k][0] * r.m[k][0];
    m10 += turn.m[k][1] * r.m[k][0];
  }
  euler[0] = a * kDeg;
  euler[1] = b * kDeg;
  euler[2] = std::atan2(m10, m00) * kDeg;
}

std::vector<FitNumber> fit_numbers(const Problem& problem, const std::vector<std::string>& wrt) {
  const std::vector<std::string> known = differentiable_parameters(problem);
  auto is_known = [&](const std::string& p) {
    return std::find(known.begin(), known.end(), p) != known.end();
  };
  std::vector<FitNumber> out;
  for (const std::string& w : wrt) {
    FitNumber n{w, {}};
    if (is_known(w)) {
      n.paths.push_back(w);
    } else {
      for (int k = 0; is_known(w + "." + std::to_string(k)); ++k)
        n.paths.push_back(w + "." + std::to_string(k));
    }
    if (n.paths.empty()) {
      std::string message = w + ": not a differentiable number of this scene";
      if (const auto near = scene::nearest(w, known)) message += " (nearest: " + *near + ")";
      throw std::invalid_argument(message);
    }
    ProblemData<double> copy = problem.data;
    const double first = *parameter_slot(copy, n.paths.front());
    for (const std::string& p : n.paths)
      if (*parameter_slot(copy, p) != first)
        throw std::invalid_argument(w + ": its entries differ (" + p +
                                    "): a vector is fitted as one number only when they start equal");
    out.push_back(std::move(n));
  }
  return out;
}

TossObjective::TossObjective(const Problem& problem, const TossSet& set, const std::vector<int>& tosses,
                             int length, std::vector<FitNumber> numbers)
    : problem_(problem), numbers_(std::move(numbers)) {
  if (problem.data.type != ModelType::rigid || problem.data.rigid.count < 1)
    throw std::invalid_argument(
        "model.type: measured tosses need free bodies (model.type rigid), body 0 the tossed one");
  const double dt = problem.integrator.dt;
  if (!(std::fabs(dt - set.dt) <= kDtTolerance * set.dt))
    throw std::invalid_argument("integrator.dt: " + std::to_string(dt) + " s, but the frames of " +
                                set.source + " are " + std::to_string(set.dt) +
                                " s apart: set integrator.dt to their spacing");
  if (length == 1 || length < 0)
    throw std::invalid_argument(
        "segment length " + std::to_string(length) +
        ": a segment needs at least 2 frames (its start and one to predict), or 0 for "
        "whole tosses");
  for (const FitNumber& n : numbers_) {
    names_.push_back(n.name);
    for (const std::string& p : n.paths) flat_paths_.push_back(p);
  }
  ProblemData<double> copy = problem.data;
  for (const FitNumber& n : numbers_) start_.push_back(*parameter_slot(copy, n.paths.front()));
  for (int number : tosses) {
    if (!set.find(number))
      throw std::invalid_argument("toss " + std::to_string(number) + ": not in " + set.source);
    const Toss& toss = *set.find(number);
    const long frames = static_cast<long>(toss.frames.size());
    const long span = length == 0 ? frames : length;
    for (long first = 0; first + span <= frames && span >= 2; first += span) {
      Run run{number, first, span, start_of(toss.frames[static_cast<std::size_t>(first)]), {}};
      run.data.source = set.source;
      run.data.by_step.assign(static_cast<std::size_t>(span), {});
      for (long i = 1; i < span; ++i)
        run.data.by_step[static_cast<std::size_t>(i)].push_back(
            sample_of(toss.frames[static_cast<std::size_t>(first + i)]));
      run.data.count = span - 1;
      samples_ += run.data.count;
      runs_.push_back(std::move(run));
    }
  }
  if (runs_.empty())
    throw std::invalid_argument("the selected tosses have no segment of " + std::to_string(length) +
                                " frames");
  evaluator(0, runs_.front().frames - 1);  // checks the paths now, with the constructor's messages
}

ParameterGradient& TossObjective::evaluator(int thread, long steps) {
  if (evaluators_.size() <= static_cast<std::size_t>(thread))
    evaluators_.resize(static_cast<std::size_t>(thread) + 1);
  std::unique_ptr<ParameterGradient>& e = evaluators_[static_cast<std::size_t>(thread)][steps];
  if (!e) {
    Problem p = problem_;
    p.integrator.steps = steps;
    e = std::make_unique<ParameterGradient>(p, flat_paths_, &runs_.front().data);
    e->set_fixed_paths(start_paths());
    e->set_checkpoint_steps(0);
  }
  return *e;
}

std::vector<double> TossObjective::expand(const std::vector<double>& values) const {
  std::vector<double> flat;
  for (std::size_t j = 0; j < numbers_.size(); ++j)
    flat.insert(flat.end(), numbers_[j].paths.size(), values[j]);
  return flat;
}

std::string TossObjective::where(std::size_t k) const {
  const Run& r = runs_[k];
  return "toss " + std::to_string(r.toss) + ", frames " + std::to_string(r.first) + "-" +
         std::to_string(r.first + r.frames - 1);
}

void TossObjective::each_run(const std::function<void(std::size_t, ParameterGradient&)>& job) {
  // Evaluators are made on the caller's thread: the map is not shared between threads while they run.
  for (int t = 0; t < threads_; ++t)
    for (const Run& r : runs_) evaluator(t, r.frames - 1);
  for_each_index(runs_.size(), threads_, [&](std::size_t k, int thread) {
    const Run& r = runs_[k];
    ParameterGradient& e = *evaluators_[static_cast<std::size_t>(thread)].at(r.frames - 1);
    e.set_fixed_values(r.start);
    e.set_data(&r.data);
    job(k, e);
  });
}

double TossObjective::objective(const std::vector<double>& values, SolveStats* stats) {
  const std::vector<double> flat = expand(values);
  std::vector<double> each(runs_.size());
  std::vector<SolveStats> st(runs_.size());
  each_run([&](std::size_t k, ParameterGradient& e) { each[k] = e.objective(flat, &st[k]); });
  double sum = 0.0;
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    sum += each[k] * static_cast<double>(runs_[k].data.count);
    if (stats && (k == 0 || st[k].status != Status::ok)) *stats = st[k];
  }
  return sum / static_cast<double>(samples_);  // NaN when a run failed
}

namespace {

// The fitted numbers' gradient from the scene paths' one: each number's is the sum over its paths.
std::vector<double> fold(const std::vector<FitNumber>& numbers, const std::vector<double>& flat) {
  std::vector<double> g(numbers.size(), 0.0);
  std::size_t at = 0;
  for (std::size_t j = 0; j < numbers.size(); ++j)
    for (std::size_t k = 0; k < numbers[j].paths.size(); ++k) g[j] += flat[at++];
  return g;
}

}  // namespace

ObjectiveGradient TossObjective::combine(const std::vector<double>& values, bool reverse) {
  const std::vector<double> flat = expand(values);
  std::vector<ObjectiveGradient> each(runs_.size());
  each_run(
      [&](std::size_t k, ParameterGradient& e) { each[k] = reverse ? e.reverse(flat) : e.forward(flat); });
  ObjectiveGradient out;
  out.grad.assign(values.size(), 0.0);
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    const ObjectiveGradient& r = each[k];
    const double w = static_cast<double>(runs_[k].data.count) / static_cast<double>(samples_);
    out.runs += r.runs;
    if (k == 0) out.stats = r.stats;
    if (r.status != "ok" && out.status == "ok") {
      out.status = where(k) + ": " + r.status;
      out.stats = r.stats;
    }
    out.loss += w * r.loss;
    const std::vector<double> g = fold(numbers_, r.grad);
    for (std::size_t j = 0; j < values.size(); ++j) out.grad[j] += w * g[j];
  }
  if (out.status != "ok") out.loss = kNaN;
  return out;
}

ObjectiveGradient TossObjective::forward(const std::vector<double>& values) {
  return combine(values, false);
}

ObjectiveGradient TossObjective::reverse(const std::vector<double>& values) {
  return combine(values, true);
}

// The runs' residuals one after the other (sum of squares / samples is the objective), the Jacobian's
// columns folded per fitted number.
ResidualJacobian TossObjective::residuals(const std::vector<double>& values) {
  const std::vector<double> flat = expand(values);
  std::vector<ResidualJacobian> each(runs_.size());
  each_run([&](std::size_t k, ParameterGradient& e) { each[k] = e.residuals(flat); });
  ResidualJacobian out;
  const std::size_t p = values.size(), q = flat.size();
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    const ResidualJacobian& r = each[k];
    out.runs += r.runs;
    if (r.status != "ok") {
      out.status = where(k) + ": " + r.status;
      return out;
    }
    out.r.insert(out.r.end(), r.r.begin(), r.r.end());
    out.samples += r.samples;
    for (std::size_t i = 0; i < r.r.size(); ++i) {
      const std::vector<double> row(r.J.begin() + static_cast<std::ptrdiff_t>(i * q),
                                    r.J.begin() + static_cast<std::ptrdiff_t>((i + 1) * q));
      const std::vector<double> folded = fold(numbers_, row);
      out.J.insert(out.J.end(), folded.begin(), folded.begin() + static_cast<std::ptrdiff_t>(p));
    }
  }
  return out;
}

TrajectoryError TossObjective::trajectory_error(const std::vector<double>& values) {
  const ResidualJacobian rj = residuals(values);
  TrajectoryError out;
  if (rj.status != "ok") {
    out.status = rj.status;
    out.mean_abs = out.mean_abs_position = kNaN;
    return out;
  }
  // Each predicted frame holds 12 residuals: 3 of the position, then 9 of the rotation matrix.
  double all = 0.0, position = 0.0;
  for (std::size_t i = 0; i < rj.r.size(); ++i) {
    all += std::fabs(rj.r[i]);
    if (i % 12 < 3) position += std::fabs(rj.r[i]);
  }
  out.frames = static_cast<long>(rj.r.size() / 12);
  out.mean_abs = all / static_cast<double>(rj.r.size());
  out.mean_abs_position = position / (3.0 * static_cast<double>(out.frames));
  return out;
}

}  // namespace sg
