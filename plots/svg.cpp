// SVG writer: one <g> per plot cell with frame, grid, ticks, labels, clipped series, markers and legend.
#include "plots/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/io/atomic_file.hpp"
#include "plots/axis_math.hpp"
#include "plots/heatmap.hpp"

namespace sg::plot {
namespace {

constexpr double kFigureTitleHeight = 28.0;
constexpr double kMarginLeft = 64.0, kMarginRight = 16.0, kMarginBottom = 44.0;
constexpr double kMarginTop = 12.0, kPlotTitleHeight = 20.0;
constexpr double kFontSize = 11.0;
constexpr double kCharWidth = 6.2;  // rough advance at kFontSize, for sizing the legend box
constexpr double kFadedOpacity = 0.35;

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
};

struct LegendSlot {
  LegendItem item;
  double x = 0, y = 0;  // left end of the sample line, text baseline row centre
};

struct Frame {
  Rect area;
  AxisMap xmap, ymap;
  std::vector<LegendSlot> legend;  // in rows between the title and the data area
  ColorBar bar;                    // right of the area, for a heatmap
};

// Coordinates with two decimals; far off-screen points are clamped (they are clipped anyway).
std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", std::clamp(v, -1e6, 1e6));
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string rgb(Color c) {
  return "rgb(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

std::string opacity_attr(Color c, bool faded) {
  const double alpha = c.a / 255.0 * (faded ? kFadedOpacity : 1.0);
  return alpha < 1.0 ? " opacity=\"" + num(alpha) + "\"" : "";
}

void line(std::string& out, double x1, double y1, double x2, double y2, const std::string& attrs) {
  out += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
         "\" " + attrs + "/>\n";
}

void text(std::string& out, double x, double y, std::string_view content, const std::string& attrs) {
  out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" " + attrs + ">" + xml_escape(content) + "</text>\n";
}

constexpr double kLegendRow = 16.0;

std::string fit_tail(const std::string& label, double length);

// Legend entries flowed in rows from the cell's left edge; returns the rows' height.
double place_legend(const Plot& plot, const Rect& cell, double top, Frame& f) {
  if (!plot.legend) return 0.0;
  const double left = cell.x + kMarginLeft, right = cell.x + cell.w - kMarginRight;
  double x = left, y = top + kLegendRow / 2;
  for (LegendItem item : legend_items(plot)) {
    item.label = fit_tail(item.label, right - left - 34);
    const double width = 34 + kCharWidth * static_cast<double>(item.label.size()) + 12;
    if (x > left && x + width > right) {
      x = left;
      y += kLegendRow;
    }
    f.legend.push_back({item, x, y});
    x += width;
  }
  return f.legend.empty() ? 0.0 : y + kLegendRow / 2 - top + 4;
}

// Room the colour bar takes right of the data area: its gap, strip and widest tick label.
double color_bar_room(const ColorBar& bar) {
  if (bar.colors.empty()) return 0.0;
  std::size_t chars = 0;
  for (const Tick& t : bar.ticks) chars = std::max(chars, t.label.size());
  return kColorBarGap + kColorBarWidth + kColorBarTickGap + kCharWidth * static_cast<double>(chars);
}

Frame make_frame(const Plot& plot, const Rect& cell) {
  Frame f;
  double top = kMarginTop + (plot.title.empty() ? 0.0 : kPlotTitleHeight);
  top += place_legend(plot, cell, cell.y + top, f);
  f.bar = heat_color_bar(plot.heatmap);
  const double right = kMarginRight + color_bar_room(f.bar);
  f.area = {cell.x + kMarginLeft, cell.y + top, std::max(1.0, cell.w - kMarginLeft - right),
            std::max(1.0, cell.h - top - kMarginBottom)};
  f.xmap = make_axis_map(plot.x, auto_view(plot, AxisId::x), f.area.x, f.area.x + f.area.w);
  f.ymap = make_axis_map(plot.y, auto_view(plot, AxisId::y), f.area.y + f.area.h, f.area.y);
  return f;
}

void draw_x_ticks(std::string& out, const Frame& f) {
  const double bottom = f.area.y + f.area.h;
  for (const Tick& t : make_ticks(f.xmap.view, f.xmap.scale, f.xmap.threshold)) {
    const double px = f.xmap.to_pixel(t.value);
    line(out, px, f.area.y, px, bottom, "class=\"grid\" stroke=\"#e5e5e5\"");
    line(out, px, bottom, px, bottom + 4, "stroke=\"#333\"");
    text(out, px, bottom + 16, t.label, "class=\"tick-label\" text-anchor=\"middle\"");
  }
}

void draw_y_ticks(std::string& out, const Frame& f) {
  const double left = f.area.x;
  for (const Tick& t : make_ticks(f.ymap.view, f.ymap.scale, f.ymap.threshold)) {
    const double py = f.ymap.to_pixel(t.value);
    line(out, left, py, left + f.area.w, py, "class=\"grid\" stroke=\"#e5e5e5\"");
    line(out, left - 4, py, left, py, "stroke=\"#333\"");
    text(out, left - 7, py + 4, t.label, "class=\"tick-label\" text-anchor=\"end\"");
  }
}

// The rotated y label must not run past the data area (into the title above or the x label below): keep
// the longest tail that fits, prefixed by "...", by the estimated glyph advance.
std::string fit_tail(const std::string& label, double length) {
  const auto max_chars = static_cast<std::size_t>(std::max(0.0, length / kCharWidth));
  if (label.size() <= max_chars) return label;
  if (max_chars <= 3) return "";
  return "..." + label.substr(label.size() - (max_chars - 3));
}

void draw_labels(std::string& out, const Plot& plot, const Frame& f, const Rect& cell) {
  const double cx = f.area.x + f.area.w / 2;
  if (!plot.title.empty()) {
    text(out, cx, cell.y + kMarginTop + 12, plot.title,
         "class=\"plot-title\" text-anchor=\"middle\" font-weight=\"bold\"");
  }
  if (!plot.x.label.empty()) {
    const auto max_chars = static_cast<std::size_t>(std::max(0.0, (cell.w - 8) / kCharWidth));
    const std::string label = plot.x.label.size() <= max_chars
                                  ? plot.x.label
                                  : plot.x.label.substr(0, max_chars > 3 ? max_chars - 3 : 0) + "...";
    text(out, cx, f.area.y + f.area.h + 34, label, "class=\"axis-label\" text-anchor=\"middle\"");
  }
  if (!plot.y.label.empty()) {
    const double x = cell.x + 14, y = f.area.y + f.area.h / 2;
    text(out, x, y, fit_tail(plot.y.label, f.area.h),
         "class=\"axis-label\" text-anchor=\"middle\" transform=\"rotate(-90 " + num(x) + " " + num(y) +
             ")\"");
  }
}

void draw_markers(std::string& out, const Frame& f, const Series& s, IndexRun run, const std::string& paint) {
  const double r = std::max(2.0, s.width + 1.0);
  for (std::size_t i = run.begin; i < run.end; ++i) {
    out += "<circle class=\"marker\" cx=\"" + num(f.xmap.to_pixel(s.x[i])) + "\" cy=\"" +
           num(f.ymap.to_pixel(s.y[i])) + "\" r=\"" + num(r) + "\" fill=\"" + paint + "\"/>\n";
  }
}

void draw_polyline(std::string& out, const Frame& f, const Series& s, IndexRun run,
                   const std::string& paint) {
  out += "<polyline class=\"series-line\" fill=\"none\" stroke=\"" + paint + "\" stroke-width=\"" +
         num(s.width) + "\" stroke-linejoin=\"round\"";
  if (s.dashed) out += " stroke-dasharray=\"6 4\"";
  out += " points=\"";
  for (std::size_t i = run.begin; i < run.end; ++i) {
    if (i > run.begin) out += ' ';
    out += num(f.xmap.to_pixel(s.x[i])) + "," + num(f.ymap.to_pixel(s.y[i]));
  }
  out += "\"/>\n";
}

void draw_series(std::string& out, const Frame& f, const Series& s, Color color) {
  const std::string paint = rgb(color);
  out += "<g class=\"series\"" + opacity_attr(color, s.faded) + ">\n";
  const bool lines = s.style != SeriesStyle::markers;
  const bool markers = s.style != SeriesStyle::line;
  for (const IndexRun& run : drawable_runs(s, f.xmap.scale, f.ymap.scale)) {
    // A lone point between gaps would be invisible as a line, so it gets a marker.
    if (lines && run.end - run.begin >= 2) draw_polyline(out, f, s, run, paint);
    if (markers || run.end - run.begin == 1) draw_markers(out, f, s, run, paint);
  }
  out += "</g>\n";
}

// Small triangles at the top or bottom edge where a robust axis left points out of view.
void draw_off_scale(std::string& out, const Plot& plot, const Frame& f, const std::vector<Color>& colors) {
  const std::vector<OffScalePoint> points =
      off_scale_points(plot, shown_series(plot), f.xmap.scale, f.ymap.scale, f.xmap.view, f.ymap.view);
  if (points.empty()) return;
  out += "<g class=\"off-scale\">\n";
  for (const OffScalePoint& p : points) {
    const double x = f.xmap.to_pixel(p.x);
    const double edge = p.above ? f.area.y : f.area.y + f.area.h, tip = p.above ? edge + 1 : edge - 1;
    const double base = p.above ? edge + 7 : edge - 7;
    out += "<polygon points=\"" + num(x) + "," + num(tip) + " " + num(x - 3.5) + "," + num(base) + " " +
           num(x + 3.5) + "," + num(base) + "\" fill=\"" + rgb(colors[p.series]) + "\"/>\n";
  }
  out += "</g>\n";
}

void draw_vertical_markers(std::string& out, const Plot& plot, const Frame& f) {
  for (double v : plot.vertical_markers) {
    if (!drawable_on(v, f.xmap.scale)) continue;
    const double px = f.xmap.to_pixel(v);
    line(out, px, f.area.y, px, f.area.y + f.area.h,
         "class=\"vertical-marker\" stroke=\"#444\" stroke-width=\"1\" stroke-dasharray=\"4 3\"");
  }
}

void draw_legend(std::string& out, const Plot& plot, const Frame& f, const std::vector<Color>& colors) {
  if (f.legend.empty()) return;
  out += "<g class=\"legend\">\n";
  for (const LegendSlot& slot : f.legend) {
    const std::size_t i = slot.item.series;
    const Series& s = plot.series[i];
    out += "<g class=\"legend-entry\"" + opacity_attr(colors[i], s.faded) + ">\n";
    line(out, slot.x + 4, slot.y, slot.x + 26, slot.y,
         "stroke=\"" + rgb(colors[i]) + "\" stroke-width=\"2\"" +
             (s.dashed ? " stroke-dasharray=\"6 4\"" : ""));
    text(out, slot.x + 30, slot.y + 4, slot.item.label, "");
    out += "</g>\n";
  }
  out += "</g>\n";
}

// The strip from the range's low end (bottom) to its high end, ticked on its right.
void draw_color_bar(std::string& out, const Frame& f) {
  if (f.bar.colors.empty()) return;
  const double x = f.area.x + f.area.w + kColorBarGap, bottom = f.area.y + f.area.h;
  const double step = f.area.h / static_cast<double>(f.bar.colors.size());
  out += "<g class=\"color-bar\">\n";
  for (std::size_t k = 0; k < f.bar.colors.size(); ++k) {
    const double y = bottom - step * static_cast<double>(k + 1);
    out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(kColorBarWidth) + "\" height=\"" +
           num(step + 0.5) + "\" fill=\"" + rgb(f.bar.colors[k]) + "\"/>\n";
  }
  out += "<rect x=\"" + num(x) + "\" y=\"" + num(f.area.y) + "\" width=\"" + num(kColorBarWidth) +
         "\" height=\"" + num(f.area.h) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  const double span = f.bar.range.hi - f.bar.range.lo;
  for (const Tick& t : f.bar.ticks) {
    const double y = bottom - (t.value - f.bar.range.lo) / span * f.area.h;
    line(out, x + kColorBarWidth, y, x + kColorBarWidth + 3, y, "stroke=\"#333\"");
    text(out, x + kColorBarWidth + kColorBarTickGap, y + 4, t.label, "class=\"tick-label\"");
  }
  out += "</g>\n";
}

// One rectangle per cell, beneath the series; cells extend half a step beyond the outer centres.
void draw_heatmap(std::string& out, const Frame& f, const Heatmap& h) {
  for (const HeatCell& c : heat_cells(h)) {
    const double x0 = f.xmap.to_pixel(c.x0), x1 = f.xmap.to_pixel(c.x1);
    const double y0 = f.ymap.to_pixel(c.y0), y1 = f.ymap.to_pixel(c.y1);
    // A hair wider than the cell, so that anti-aliasing leaves no seams.
    out += "<rect x=\"" + num(std::min(x0, x1)) + "\" y=\"" + num(std::min(y0, y1)) + "\" width=\"" +
           num(std::fabs(x1 - x0) + 0.5) + "\" height=\"" + num(std::fabs(y1 - y0) + 0.5) + "\" fill=\"" +
           rgb(c.color) + "\"/>\n";
  }
}

void draw_plot(std::string& out, const Plot& plot, const Rect& cell, std::size_t index) {
  const Frame f = make_frame(plot, cell);
  const std::string clip_id = "plot-clip-" + std::to_string(index);
  out += "<g class=\"plot\">\n<defs><clipPath id=\"" + clip_id + "\"><rect x=\"" + num(f.area.x) + "\" y=\"" +
         num(f.area.y) + "\" width=\"" + num(f.area.w) + "\" height=\"" + num(f.area.h) +
         "\"/></clipPath></defs>\n";
  draw_x_ticks(out, f);
  draw_y_ticks(out, f);
  out += "<g clip-path=\"url(#" + clip_id + ")\">\n";
  draw_heatmap(out, f, plot.heatmap);
  const std::vector<Color> colors = resolve_colors(plot);
  for (bool faded_pass : {true, false}) {  // pinned reference sweeps go behind the live ones
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
      const Series& s = plot.series[i];
      if (s.visible && s.faded == faded_pass) draw_series(out, f, s, colors[i]);
    }
  }
  draw_vertical_markers(out, plot, f);
  draw_off_scale(out, plot, f, colors);
  out += "</g>\n<rect class=\"frame\" x=\"" + num(f.area.x) + "\" y=\"" + num(f.area.y) + "\" width=\"" +
         num(f.area.w) + "\" height=\"" + num(f.area.h) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  draw_color_bar(out, f);
  draw_labels(out, plot, f, cell);
  draw_legend(out, plot, f, colors);
  out += "</g>\n";
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string to_svg(const Figure& figure, int width, int height) {
  const double w = std::max(width, 1), h = std::max(height, 1);
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
      num(w) + "\" height=\"" + num(h) + "\" viewBox=\"0 0 " + num(w) + " " + num(h) +
      "\" font-family=\"sans-serif\" font-size=\"" + num(kFontSize) + "\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double top = 0;
  if (!figure.title.empty()) {
    text(out, w / 2, 19, figure.title, "class=\"figure-title\" text-anchor=\"middle\" font-size=\"15\"");
    top = kFigureTitleHeight;
  }
  const std::size_t columns = static_cast<std::size_t>(std::max(1, figure.columns));
  const std::size_t rows = (figure.plots.size() + columns - 1) / columns;
  const double cell_w = w / static_cast<double>(columns);
  const double cell_h = rows ? (h - top) / static_cast<double>(rows) : 0.0;
  for (std::size_t i = 0; i < figure.plots.size(); ++i) {
    const Rect cell{cell_w * static_cast<double>(i % columns),
                    top + cell_h * static_cast<double>(i / columns), cell_w, cell_h};
    draw_plot(out, figure.plots[i], cell, i);
  }
  out += "</svg>\n";
  return out;
}

bool write_svg(const Figure& figure, const std::string& path, int width, int height, std::string* error) {
  return io::write_file_atomic(path, to_svg(figure, width, height), error);
}

}  // namespace sg::plot
