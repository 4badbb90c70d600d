// CSV and JSON export of a plot's data.
#include "plots/csv_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "plots/axis_math.hpp"

namespace sg::plot {
namespace {

std::string csv_number(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

std::string series_label(const Series& s, std::size_t index) {
  return s.name.empty() ? "series " + std::to_string(index + 1) : s.name;
}

void append_row(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += fields[i];
  }
  out += '\n';
}

nlohmann::json number_array(const std::vector<double>& values) {
  nlohmann::json array = nlohmann::json::array();
  for (double v : values) array.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
  return array;
}

nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json axis_json(const Axis& axis) {
  return {{"label", axis.label},
          {"scale", scale_name(axis.scale)},
          {"symlog_threshold", axis.symlog_threshold},
          {"min", finite_or_null(axis.min)},
          {"max", finite_or_null(axis.max)}};
}

const char* style_name(SeriesStyle style) {
  switch (style) {
    case SeriesStyle::line:
      return "line";
    case SeriesStyle::markers:
      return "markers";
    case SeriesStyle::line_and_markers:
      return "line_and_markers";
  }
  return "line";
}

nlohmann::json series_json(const Series& s, Color color) {
  return {{"name", s.name},
          {"x", number_array(s.x)},
          {"y", number_array(s.y)},
          {"style", style_name(s.style)},
          {"color", {color.r, color.g, color.b, color.a}},
          {"dashed", s.dashed},
          {"faded", s.faded},
          {"visible", s.visible},
          {"width", s.width}};
}

}  // namespace

std::string csv_escape(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string plot_to_csv(const Plot& plot) {
  std::string out;
  std::vector<std::string> fields;
  std::size_t rows = 0;
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const std::string name = series_label(plot.series[i], i);
    fields.push_back(csv_escape(name + " x"));
    fields.push_back(csv_escape(name + " y"));
    rows = std::max({rows, plot.series[i].x.size(), plot.series[i].y.size()});
  }
  append_row(out, fields);
  for (std::size_t r = 0; r < rows; ++r) {
    fields.clear();
    for (const Series& s : plot.series) {
      fields.push_back(r < s.x.size() ? csv_number(s.x[r]) : "");
      fields.push_back(r < s.y.size() ? csv_number(s.y[r]) : "");
    }
    append_row(out, fields);
  }
  return out;
}

nlohmann::json plot_to_json(const Plot& plot) {
  nlohmann::json series = nlohmann::json::array();
  const std::vector<Color> colors = resolve_colors(plot);
  for (std::size_t i = 0; i < plot.series.size(); ++i)
    series.push_back(series_json(plot.series[i], colors[i]));
  return {{"title", plot.title},
          {"x", axis_json(plot.x)},
          {"y", axis_json(plot.y)},
          {"series", series},
          {"vertical_markers", number_array(plot.vertical_markers)},
          {"legend", plot.legend}};
}

}  // namespace sg::plot
