#pragma once
// Data export of one plot, for spreadsheets and notebooks.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "plots/plot.hpp"

namespace sg::plot {

// Columns "<name> x","<name> y" per series; one row per point index. NaN and missing points are empty
// cells; values use the shortest text that round-trips. Fields are quoted per RFC 4180 when needed. Rows end
// in LF.
std::string plot_to_csv(const Plot& plot);

// {"title", "x": axis, "y": axis, "series": [{"name", "x", "y", "style", "color", ...}], "vertical_markers"}.
// Non-finite values become null (JSON has no NaN).
nlohmann::json plot_to_json(const Plot& plot);

// A CSV field, quoted when it contains a comma, quote, CR or LF.
std::string csv_escape(std::string_view field);

}  // namespace sg::plot
