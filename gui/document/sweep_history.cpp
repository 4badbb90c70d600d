#include "gui/document/sweep_history.hpp"

#include <algorithm>
#include <array>

#include "engine/scene/config_diff.hpp"
#include "gui/panels/plot_decimation.hpp"

namespace sg::gui {
namespace {

// Pin colours stay clear of the live series' palette (blue, orange, green, vermillion, ...).
constexpr std::array<plot::Color, SweepHistory::kMaxPins> kPinColors = {{
    {148, 103, 189, 255},  // purple
    {140, 86, 75, 255},    // brown
    {227, 119, 194, 255},  // pink
    {188, 189, 34, 255},   // olive
}};

bool same_color(plot::Color a, plot::Color b) {
  return a.r == b.r && a.g == b.g && a.b == b.b;
}

}  // namespace

std::size_t SweepHistory::record(std::shared_ptr<const Problem> problem, const plot::Figure& figure) {
  // The same sweep (the same problem, or other settings that sweep alike: a knob moved and back, only
  // optimize.* or mpc.* changed) keeps one record, which then stands for the newest problem.
  auto it = std::find_if(records_.begin(), records_.end(), [&](const SweepRecord& r) {
    return r.problem == problem || scene::same_sweep_settings(r.problem->config, problem->config);
  });
  if (it != records_.end()) it->problem = problem;
  if (it == records_.end()) {
    if (records_.size() >= kMaxRecords) {
      const auto oldest_unpinned =
          std::find_if(records_.begin(), records_.end(), [](const SweepRecord& r) { return !r.pinned; });
      if (oldest_unpinned == records_.end()) return records_.size() - 1;  // all pinned: cannot happen
      const auto gone = static_cast<std::size_t>(oldest_unpinned - records_.begin());
      records_.erase(oldest_unpinned);
      for (std::size_t& k : pin_order_)
        if (k > gone) --k;
    }
    records_.push_back(SweepRecord{std::move(problem), {}, {}, "", false, {}});
    it = records_.end() - 1;
  }
  it->figure = figure;
  it->shown = decimate_figure(figure);
  it->label = live_.is_null() ? "" : scene::difference_label(it->problem->config, live_);
  ++version_;
  return static_cast<std::size_t>(it - records_.begin());
}

plot::Color SweepHistory::free_color() const {
  for (const plot::Color& c : kPinColors) {
    const bool used = std::any_of(records_.begin(), records_.end(),
                                  [&](const SweepRecord& r) { return r.pinned && same_color(r.color, c); });
    if (!used) return c;
  }
  return kPinColors[0];
}

void SweepHistory::set_pinned(std::size_t index, bool pinned) {
  if (index >= records_.size() || records_[index].pinned == pinned) return;
  if (pinned) {
    if (pin_order_.size() >= kMaxPins) set_pinned(pin_order_.front(), false);
    records_[index].color = free_color();
    records_[index].pinned = true;
    pin_order_.push_back(index);
  } else {
    records_[index].pinned = false;
    pin_order_.erase(std::remove(pin_order_.begin(), pin_order_.end(), index), pin_order_.end());
  }
  ++version_;
}

void SweepHistory::unpin_all() {
  for (SweepRecord& r : records_) r.pinned = false;
  pin_order_.clear();
  ++version_;
}

void SweepHistory::set_live_config(const nlohmann::json& live) {
  if (live == live_) return;
  live_ = live;
  for (SweepRecord& r : records_) r.label = scene::difference_label(r.problem->config, live_);
  ++version_;
}

std::size_t SweepHistory::pin_count() const {
  return pin_order_.size();
}

std::vector<plot::Series> SweepHistory::pinned_series(std::size_t index, bool display) const {
  std::vector<plot::Series> out;
  for (std::size_t n = 0; n < pin_order_.size(); ++n) {
    const SweepRecord& r = records_[pin_order_[n]];
    const std::string group = "pin " + std::to_string(n + 1) + ": " + r.label;
    const std::vector<plot::Plot>& plots = display ? r.shown : r.figure.plots;
    if (index >= plots.size()) continue;
    // The loss, the AD and FD gradients and the error: the smoothing estimates would crowd the plot.
    const std::size_t keep = index == 1 ? 2 : 1;
    for (std::size_t s = 0; s < plots[index].series.size() && s < keep; ++s) {
      plot::Series series = plots[index].series[s];
      series.faded = true;
      series.auto_color = false;
      series.color = r.color;
      series.group = group;
      series.name = group + ": " + series.name;
      out.push_back(std::move(series));
    }
  }
  return out;
}

}  // namespace sg::gui
