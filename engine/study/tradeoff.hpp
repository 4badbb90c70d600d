#pragma once
// Accuracy against cost of the integrators on one scene at one parameter value (DiffMJX Fig. S6, its
// experiment 04_time-toss): each setting (a method at a fixed step or a tolerance) runs the loss alone and
// the loss with its gradient, timed; both are compared with a tight reference run. Each setting is the scene
// with dotted-path overrides (integrator.type, .substeps, .rtol, ...), so it is exactly what
// `softgrad sweep --set ...` would run, and a setting the scene does not allow is reported, not run.
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"

namespace sg {

// One family of settings: a method swept over fixed steps (knob "h") or tolerances (knob "tol").
struct TradeoffFamily {
  std::string name;    // e.g. "euler", "tsit5", "tsit5-noevents"
  std::string method;  // integrator.type
  bool adaptive = false;
  bool events = true;  // adaptive: integrator.events
};

// The families the study knows, in the order they are drawn.
const std::vector<TradeoffFamily>& tradeoff_families();
const TradeoffFamily* find_tradeoff_family(const std::string& name);
// The families a study runs when none are named: euler, rk4, bosh3, dopri5, tsit5, tsit5-noevents, dopri8,
// and the scene's own method first where it is not among them (moreau).
std::vector<std::string> default_tradeoff_families(const Problem& problem);

struct TradeoffSetting {
  std::string family;
  double knob = 0.0;                                              // the fixed step h (s), or rtol = atol
  std::vector<std::pair<std::string, nlohmann::json>> overrides;  // scene paths and values
  std::string label() const;                                      // e.g. "tsit5 tol 1e-08"
};

inline constexpr double kTradeoffNaN = std::numeric_limits<double>::quiet_NaN();

struct TradeoffRow {
  TradeoffSetting setting;
  double loss = kTradeoffNaN, grad = kTradeoffNaN;
  double loss_error = kTradeoffNaN, grad_error = kTradeoffNaN;  // absolute, against the reference
  double seconds_loss = kTradeoffNaN;        // one run of the loss alone (best of the rounds)
  double seconds_grad = kTradeoffNaN;        // one run of the loss and its gradient (best of the rounds)
  long steps = 0, rejected = 0, events = 0;  // of the gradient run
  std::string status = "ok";                 // or why the setting failed or was not run
};

struct TradeoffOptions {
  std::vector<std::string> families;  // empty: default_tradeoff_families
  std::vector<double> tolerances = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-10};
  // Fixed-step methods take h = integrator.dt / n (the output grid stays).
  std::vector<long> step_divisions = {1, 3, 10, 30, 100, 300};
  // The reference: this method at this tolerance with contact events, and a second method beside it whose
  // difference from it says how far the reference itself can be trusted.
  std::string reference = "tsit5", reference_check = "dopri8";
  double reference_tol = 1e-12;
  // Timing rounds over all settings; each round times a setting over a 5 ms window, and the best counts.
  int repeats = 3;
  // Adaptive settings get the scene's integrator.max_steps times this: 1 runs each setting as `--set` would
  // (a storm of rejections, such as billiards without events at 1e-8, ends at the scene's budget).
  long max_steps_factor = 1;
};

struct TradeoffResult {
  std::string scene, parameter;
  double value = 0.0;  // the swept parameter's value
  TradeoffRow reference, reference_check;
  double spread_loss = kTradeoffNaN, spread_grad = kTradeoffNaN;  // |reference - reference_check|
  std::vector<TradeoffRow> rows;
  bool cancelled = false;
  bool ok() const { return reference.status == "ok"; }
};

// The settings of `options` for this scene (the reference and its check not included). Unknown family
// names are an error: `error` names it and the list is empty.
std::vector<TradeoffSetting> tradeoff_settings(const Problem& problem, const TradeoffOptions& options,
                                               std::string* error);

// Called after each run setting with (done, total); returning false cancels (rows not run stay absent).
using TradeoffProgress = std::function<bool(std::size_t, std::size_t)>;

// Runs the reference, its check and every setting at the swept value x, one after another on this thread
// (timings of runs side by side would disturb each other). `source` names the scene in messages.
TradeoffResult run_tradeoff(const Problem& problem, const std::string& source, double x,
                            const TradeoffOptions& options, const TradeoffProgress& progress = {});

nlohmann::json tradeoff_to_json(const TradeoffResult& result);
std::string tradeoff_to_csv(const TradeoffResult& result);

}  // namespace sg
