#include "engine/study/tradeoff.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>

#include "engine/gradient/point_eval.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/scene/path.hpp"

namespace sg {
namespace {

std::string method_name(Method m) {
  switch (m) {
    case Method::euler:
      return "euler";
    case Method::moreau:
      return "moreau";
    case Method::rk4:
      return "rk4";
    case Method::bosh3:
      return "bosh3";
    case Method::dopri5:
      return "dopri5";
    case Method::tsit5:
      return "tsit5";
    case Method::dopri8:
      return "dopri8";
  }
  return "euler";
}

std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

TradeoffSetting fixed_setting(const TradeoffFamily& f, const Problem& p, long divisions) {
  TradeoffSetting s;
  s.family = f.name;
  s.knob = p.integrator.dt / static_cast<double>(divisions);
  s.overrides = {{"integrator.type", f.method}, {"integrator.substeps", divisions}};
  return s;
}

TradeoffSetting adaptive_setting(const TradeoffFamily& f, const Problem& p, double tol,
                                 long max_steps_factor) {
  TradeoffSetting s;
  s.family = f.name;
  s.knob = tol;
  const long factor = std::max(1L, max_steps_factor);
  const long budget = p.integrator.max_steps > std::numeric_limits<long>::max() / factor
                          ? p.integrator.max_steps
                          : p.integrator.max_steps * factor;
  s.overrides = {{"integrator.type", f.method},
                 {"integrator.rtol", tol},
                 {"integrator.atol", tol},
                 {"integrator.max_steps", budget},
                 {"integrator.events", f.events}};
  if (f.events) s.overrides.emplace_back("integrator.step_to_outputs", true);
  return s;
}

// The scene with the setting's overrides, validated as `--set` would be.
ProblemLoad setting_problem(const Problem& base, const std::string& source, const TradeoffSetting& s) {
  nlohmann::json doc = base.config;
  for (const auto& [path, value] : s.overrides) {
    std::string why;
    if (!scene::set_path(doc, path, value, &why)) {
      ProblemLoad bad;
      bad.errors = source + ": " + path + ": " + why;
      return bad;
    }
  }
  return load_problem_json(doc, source);
}

std::string first_line(const std::string& text) {
  const std::size_t end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

// The best time of `run` over a window: run again while the runs took under 5 ms together (at most 50
// runs), so that a sub-millisecond run is not timed once; `last` gets the last run's result.
template <class Run>
double best_time(Run run, LossSample& last) {
  constexpr double kWindow = 0.005;
  constexpr int kMaxRuns = 50;
  double best = INFINITY, total = 0.0;
  for (int i = 0; i < kMaxRuns && (i == 0 || total < kWindow); ++i) {
    const auto start = std::chrono::steady_clock::now();
    last = run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, s);
    total += s;
  }
  return best;
}

std::string run_status(const LossSample& s) {
  if (s.stats.status != Status::ok) return describe_failure(s.stats);
  if (!std::isfinite(s.loss)) return "nonfinite_loss";
  if (!std::isfinite(s.grad)) return "nonfinite_gradient";
  return "ok";
}

// A setting with its evaluator, kept between timing rounds.
struct PreparedRow {
  TradeoffRow row;
  std::unique_ptr<PointEvaluator> eval;
};

// The setting's first round: its numbers, status and first timings (an evaluator only when it ran).
PreparedRow run_setting(const Problem& base, const std::string& source, double x, const TradeoffSetting& s) {
  PreparedRow out;
  TradeoffRow& row = out.row;
  row.setting = s;
  const ProblemLoad load = setting_problem(base, source, s);
  if (!load.ok()) {
    row.status = "not run: " + first_line(load.errors);
    return out;
  }
  out.eval = std::make_unique<PointEvaluator>(*load.problem);
  LossSample plain, ad;
  row.seconds_loss = best_time([&] { return out.eval->loss_only(x); }, plain);
  if (plain.stats.status != Status::ok) {  // the gradient run would fail the same way: not run
    row.status = describe_failure(plain.stats);
    row.seconds_loss = kTradeoffNaN;
    out.eval.reset();
    return out;
  }
  row.seconds_grad = best_time([&] { return out.eval->loss_and_grad(x); }, ad);
  row.steps = ad.stats.accepted;
  row.rejected = ad.stats.rejected;
  row.events = ad.stats.events;
  row.status = run_status(ad);
  if (row.status == "ok") {
    row.loss = plain.loss;
    row.grad = ad.grad;
  }
  return out;
}

// A further timing round of a setting that ran: the best times so far stay unless beaten. Rounds go over
// all settings in turn, so that a slow spell of the machine (a virtualised core's neighbours) does not
// fall on one setting's every run.
void time_again(PreparedRow& p, double x) {
  constexpr double kLongRun = 1.0;  // seconds: timer noise is small against such a run, so it runs once
  if (!p.eval || p.row.status != "ok" || p.row.seconds_grad > kLongRun) return;
  LossSample ignored;
  p.row.seconds_loss = std::min(p.row.seconds_loss, best_time([&] { return p.eval->loss_only(x); }, ignored));
  p.row.seconds_grad =
      std::min(p.row.seconds_grad, best_time([&] { return p.eval->loss_and_grad(x); }, ignored));
}

// The reference and its check: adaptive at the reference tolerance, or, where the scene allows no adaptive
// method (hard or elastic contact), its own fixed-step method at 10 times the finest division (check: 3
// times).
std::pair<TradeoffSetting, TradeoffSetting> reference_settings(const Problem& p, const std::string& source,
                                                               const TradeoffOptions& o) {
  const TradeoffFamily* ref = find_tradeoff_family(o.reference);
  const TradeoffFamily* check = find_tradeoff_family(o.reference_check);
  TradeoffFamily ref_family = ref ? *ref : TradeoffFamily{o.reference, o.reference, true, true};
  TradeoffFamily check_family =
      check ? *check : TradeoffFamily{o.reference_check, o.reference_check, true, true};
  ref_family.events = check_family.events = true;
  TradeoffSetting a = adaptive_setting(ref_family, p, o.reference_tol, 64);
  TradeoffSetting b = adaptive_setting(check_family, p, o.reference_tol, 64);
  if (setting_problem(p, source, a).ok()) return {a, b};
  long finest = 1;
  for (long n : o.step_divisions) finest = std::max(finest, n);
  const TradeoffFamily own{method_name(p.integrator.method), method_name(p.integrator.method), false, false};
  return {fixed_setting(own, p, 10 * finest), fixed_setting(own, p, 3 * finest)};
}

void compare(TradeoffRow& row, const TradeoffRow& ref) {
  if (row.status != "ok" || ref.status != "ok") return;
  row.loss_error = std::fabs(row.loss - ref.loss);
  row.grad_error = std::fabs(row.grad - ref.grad);
}

nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

nlohmann::json row_json(const TradeoffRow& r) {
  nlohmann::json j;
  j["family"] = r.setting.family;
  j["knob"] = find_tradeoff_family(r.setting.family) && find_tradeoff_family(r.setting.family)->adaptive
                  ? "tol"
                  : "h";
  j["value"] = r.setting.knob;
  j["loss"] = number_or_null(r.loss);
  j["grad"] = number_or_null(r.grad);
  j["loss_error"] = number_or_null(r.loss_error);
  j["grad_error"] = number_or_null(r.grad_error);
  j["seconds_loss"] = number_or_null(r.seconds_loss);
  j["seconds_grad"] = number_or_null(r.seconds_grad);
  j["steps"] = r.steps;
  j["rejected"] = r.rejected;
  j["events"] = r.events;
  j["status"] = r.status;
  nlohmann::json set = nlohmann::json::object();
  for (const auto& [path, value] : r.setting.overrides) set[path] = value;
  j["set"] = set;
  return j;
}

}  // namespace

const std::vector<TradeoffFamily>& tradeoff_families() {
  static const std::vector<TradeoffFamily> families = {
      {"euler", "euler", false, false},
      {"moreau", "moreau", false, false},
      {"rk4", "rk4", false, false},
      {"bosh3", "bosh3", true, true},
      {"dopri5", "dopri5", true, true},
      {"tsit5", "tsit5", true, true},
      {"tsit5-noevents", "tsit5", true, false},
      {"dopri8", "dopri8", true, true},
  };
  return families;
}

const TradeoffFamily* find_tradeoff_family(const std::string& name) {
  for (const TradeoffFamily& f : tradeoff_families())
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> default_tradeoff_families(const Problem& problem) {
  std::vector<std::string> families = {"euler",          "rk4",   "bosh3", "dopri5", "tsit5",
                                       "tsit5-noevents", "dopri8"};
  const std::string own = method_name(problem.integrator.method);
  if (std::find(families.begin(), families.end(), own) == families.end())
    families.insert(families.begin(), own);
  return families;
}

std::string TradeoffSetting::label() const {
  const TradeoffFamily* f = find_tradeoff_family(family);
  return family + (f && f->adaptive ? " tol " : " h ") + short_number(knob);
}

std::vector<TradeoffSetting> tradeoff_settings(const Problem& problem, const TradeoffOptions& options,
                                               std::string* error) {
  std::vector<TradeoffSetting> out;
  const std::vector<std::string> families =
      options.families.empty() ? default_tradeoff_families(problem) : options.families;
  for (const std::string& name : families) {
    const TradeoffFamily* f = find_tradeoff_family(name);
    if (!f) {
      std::string known;
      for (const TradeoffFamily& k : tradeoff_families()) known += (known.empty() ? "" : ", ") + k.name;
      if (error) *error = "unknown integrator family \"" + name + "\" (known: " + known + ")";
      return {};
    }
    if (f->adaptive) {
      for (double tol : options.tolerances)
        out.push_back(adaptive_setting(*f, problem, tol, options.max_steps_factor));
    } else {
      for (long n : options.step_divisions) out.push_back(fixed_setting(*f, problem, n));
    }
  }
  return out;
}

TradeoffResult run_tradeoff(const Problem& problem, const std::string& source, double x,
                            const TradeoffOptions& options, const TradeoffProgress& progress) {
  TradeoffResult result;
  result.scene = problem.name;
  result.parameter = problem.sweep.parameter;
  result.value = x;
  const std::vector<TradeoffSetting> settings = tradeoff_settings(problem, options, nullptr);
  const int rounds = std::max(1, options.repeats);
  const std::size_t total = 2 + settings.size() * static_cast<std::size_t>(rounds);
  std::size_t done = 0;
  auto advance = [&] {
    if (!progress || progress(++done, total)) return true;
    result.cancelled = true;
    return false;
  };
  const auto [ref, check] = reference_settings(problem, source, options);
  result.reference = run_setting(problem, source, x, ref).row;
  if (!advance()) return result;
  result.reference_check = run_setting(problem, source, x, check).row;
  if (!advance()) return result;
  compare(result.reference_check, result.reference);
  result.spread_loss = result.reference_check.loss_error;
  result.spread_grad = result.reference_check.grad_error;
  std::vector<PreparedRow> prepared;
  prepared.reserve(settings.size());
  for (const TradeoffSetting& s : settings) {
    prepared.push_back(run_setting(problem, source, x, s));
    compare(prepared.back().row, result.reference);
    if (!advance()) break;
  }
  for (int round = 1; round < rounds && !result.cancelled; ++round)
    for (PreparedRow& p : prepared) {
      time_again(p, x);
      if (!advance()) break;
    }
  for (PreparedRow& p : prepared) result.rows.push_back(std::move(p.row));
  return result;
}

nlohmann::json tradeoff_to_json(const TradeoffResult& r) {
  nlohmann::json j;
  j["scene"] = r.scene;
  j["parameter"] = r.parameter;
  j["value"] = r.value;
  j["reference"] = row_json(r.reference);
  j["reference_check"] = row_json(r.reference_check);
  j["spread_loss"] = number_or_null(r.spread_loss);
  j["spread_grad"] = number_or_null(r.spread_grad);
  j["cancelled"] = r.cancelled;
  nlohmann::json rows = nlohmann::json::array();
  for (const TradeoffRow& row : r.rows) rows.push_back(row_json(row));
  j["rows"] = rows;
  return j;
}

std::string tradeoff_to_csv(const TradeoffResult& r) {
  std::ostringstream out;
  out.precision(17);
  out << "family,knob,value,loss,grad,loss_error,grad_error,seconds_loss,seconds_grad,steps,rejected,events,"
         "status\n";
  auto write = [&](const TradeoffRow& row, const std::string& family) {
    const nlohmann::json j = row_json(row);
    out << family << ',' << j["knob"].get<std::string>() << ',' << row.setting.knob;
    for (double v :
         {row.loss, row.grad, row.loss_error, row.grad_error, row.seconds_loss, row.seconds_grad}) {
      out << ',';
      if (std::isfinite(v)) out << v;
    }
    std::string status = row.status;
    std::replace(status.begin(), status.end(), ',', ';');
    std::replace(status.begin(), status.end(), '"', '\'');
    out << ',' << row.steps << ',' << row.rejected << ',' << row.events << ",\"" << status << "\"\n";
  };
  write(r.reference, "reference:" + r.reference.setting.family);
  write(r.reference_check, "reference_check:" + r.reference_check.setting.family);
  for (const TradeoffRow& row : r.rows) write(row, row.setting.family);
  return out.str();
}

}  // namespace sg
