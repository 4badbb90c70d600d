#pragma once
// Recent sweeps and the pinned ones: the last finished sweeps are kept (with the settings they ran with),
// any of them can be pinned as a reference drawn behind the live sweep, each pin in its own colour and
// labelled by what differs from the live settings ("kappa (hard contact) 300, CFD off").
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct SweepRecord {
  std::shared_ptr<const Problem> problem;  // the settings it ran with (problem->config)
  plot::Figure figure;                     // its sweep figure, full data
  std::vector<plot::Plot> shown;           // thinned copies for drawing
  std::string label;                       // what differs from the live settings
  bool pinned = false;
  plot::Color color;  // the pin's colour, kept while pinned
};

class SweepHistory {
 public:
  static constexpr std::size_t kMaxRecords = 8;  // the oldest unpinned record goes first
  static constexpr std::size_t kMaxPins = 4;     // pinning one more unpins the oldest pin

  // Keeps a sweep (a finished one, or the live one when it is pinned); the same problem is kept once, its
  // figure refreshed. Returns its index.
  std::size_t record(std::shared_ptr<const Problem> problem, const plot::Figure& figure);
  void set_pinned(std::size_t index, bool pinned);
  void unpin_all();
  // Relabels every record against the live settings.
  void set_live_config(const nlohmann::json& live);

  const std::vector<SweepRecord>& records() const { return records_; }
  std::size_t pin_count() const;
  // The pinned records' series for sweep plot `index` (display: the thinned copies), drawn behind the live
  // ones: faded, in the pin's colour, grouped under its label so each pin has one legend entry.
  std::vector<plot::Series> pinned_series(std::size_t index, bool display) const;
  // Bumped on every change that alters what pinned_series returns.
  long version() const { return version_; }

 private:
  plot::Color free_color() const;
  std::vector<SweepRecord> records_;
  std::vector<std::size_t> pin_order_;  // record indices, oldest pin first
  nlohmann::json live_;
  long version_ = 0;
};

}  // namespace sg::gui
