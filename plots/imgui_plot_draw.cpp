// Drawing the ImGui plot widget with draw lists: axes, series, markers, legend and hover highlight.
#include <algorithm>
#include <cmath>

#include "plots/heatmap.hpp"
#include "plots/imgui_plot_internal.hpp"

namespace sg::plot::imgui_detail {
namespace {

constexpr float kFadedAlpha = 0.35f;
constexpr float kDashOn = 6.0f, kDashOff = 4.0f;

ImU32 style_color(ImGuiCol idx, float alpha_scale = 1.0f) {
  ImVec4 c = ImGui::GetStyleColorVec4(idx);
  c.w *= alpha_scale;
  return ImGui::ColorConvertFloat4ToU32(c);
}

// Far off-screen points would lose float precision; they are clipped anyway.
ImVec2 to_screen(const PlotLayout& layout, double x, double y) {
  const auto clampf = [](double v) { return static_cast<float>(std::clamp(v, -1e6, 1e6)); };
  return ImVec2(clampf(layout.xmap.to_pixel(x)), clampf(layout.ymap.to_pixel(y)));
}

// Whole-pixel widths take ImGui's texture-based anti-aliased line path, several times cheaper than the
// geometric one that fractional widths need (the plots are most of a frame's cost).
float line_width(const Series& s) {
  return std::max(1.0f, std::round(s.width));
}

void draw_dashed(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 color, float thickness) {
  float phase = 0.0f;  // distance into the current dash+gap period, carried across segments
  for (std::size_t i = 1; i < points.size(); ++i) {
    const ImVec2 a = points[i - 1], b = points[i];
    const float length = std::hypot(b.x - a.x, b.y - a.y);
    float t = 0.0f;
    while (t < length) {
      const bool on = phase < kDashOn;
      const float step = std::min(length - t, on ? kDashOn - phase : kDashOn + kDashOff - phase);
      if (on) {
        const float u0 = t / length, u1 = (t + step) / length;
        dl->AddLine(ImVec2(a.x + (b.x - a.x) * u0, a.y + (b.y - a.y) * u0),
                    ImVec2(a.x + (b.x - a.x) * u1, a.y + (b.y - a.y) * u1), color, thickness);
      }
      t += step;
      phase = std::fmod(phase + step, kDashOn + kDashOff);
    }
  }
}

void draw_one_series(ImDrawList* dl, const Series& s, const PlotLayout& layout, ImU32 color) {
  const bool lines = s.style != SeriesStyle::markers;
  const bool markers = s.style != SeriesStyle::line;
  std::vector<ImVec2> points;
  for (const IndexRun& run : drawable_runs(s, layout.xmap.scale, layout.ymap.scale)) {
    points.clear();
    for (std::size_t i = run.begin; i < run.end; ++i) points.push_back(to_screen(layout, s.x[i], s.y[i]));
    if (lines && points.size() >= 2) {
      if (s.dashed) {
        draw_dashed(dl, points, color, line_width(s));
      } else {
        dl->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, line_width(s));
      }
    }
    if (markers || points.size() == 1) {  // a lone point between gaps gets a marker so it shows
      for (const ImVec2& p : points) dl->AddCircleFilled(p, std::max(2.0f, s.width + 1.0f), color, 8);
    }
  }
}

// About one tick per 70 px (x) or 40 px (y), so narrow plots do not get a crowd of labels.
int tick_target(float pixels, float spacing) {
  return std::clamp(static_cast<int>(pixels / spacing), 2, 8);
}

void draw_x_ticks(ImDrawList* dl, const PlotLayout& layout) {
  const AxisMap& m = layout.xmap;
  const float width = layout.area_max.x - layout.area_min.x;
  float last_right = -1e30f;  // a label that would overlap the previous one is left out (its grid line stays)
  for (const Tick& t : make_ticks(m.view, m.scale, m.threshold, tick_target(width, 70.0f))) {
    const float px = static_cast<float>(m.to_pixel(t.value));
    dl->AddLine(ImVec2(px, layout.area_min.y), ImVec2(px, layout.area_max.y),
                style_color(ImGuiCol_Border, 0.5f));
    dl->AddLine(ImVec2(px, layout.area_max.y), ImVec2(px, layout.area_max.y + 4), style_color(ImGuiCol_Text));
    const float w = ImGui::CalcTextSize(t.label.c_str()).x;
    if (px - w / 2 < last_right + 4.0f) continue;
    dl->AddText(ImVec2(px - w / 2, layout.area_max.y + 5), style_color(ImGuiCol_Text), t.label.c_str());
    last_right = px + w / 2;
  }
}

void draw_y_ticks(ImDrawList* dl, const PlotLayout& layout) {
  const AxisMap& m = layout.ymap;
  const float line = ImGui::GetTextLineHeight();
  const float height = layout.area_max.y - layout.area_min.y;
  float last_top = 1e30f;  // labels are placed bottom-up; one that would overlap the previous is left out
  for (const Tick& t : make_ticks(m.view, m.scale, m.threshold, tick_target(height, 40.0f))) {
    const float py = static_cast<float>(m.to_pixel(t.value));
    dl->AddLine(ImVec2(layout.area_min.x, py), ImVec2(layout.area_max.x, py),
                style_color(ImGuiCol_Border, 0.5f));
    dl->AddLine(ImVec2(layout.area_min.x - 4, py), ImVec2(layout.area_min.x, py), style_color(ImGuiCol_Text));
    if (std::fabs(py - last_top) < line && last_top < 1e29f) continue;
    const float w = ImGui::CalcTextSize(t.label.c_str()).x;
    dl->AddText(ImVec2(layout.area_min.x - 6 - w, py - line / 2), style_color(ImGuiCol_Text),
                t.label.c_str());
    last_top = py;
  }
}

void draw_titles(ImDrawList* dl, const PlotLayout& layout) {
  const ImU32 text = style_color(ImGuiCol_Text);
  const float cx = (layout.area_min.x + layout.area_max.x) / 2;
  // Placed by make_layout so that they never overlap.
  if (!layout.title.empty()) dl->AddText(layout.title_pos, text, layout.title.c_str());
  if (!layout.y_label.empty()) dl->AddText(layout.y_label_pos, text, layout.y_label.c_str());
  if (!layout.x_label.empty()) {
    const float w = ImGui::CalcTextSize(layout.x_label.c_str()).x;
    const float y = layout.area_max.y + ImGui::GetTextLineHeight() + 8;
    const float x = std::clamp(cx - w / 2, layout.widget_min.x + 2,
                               std::max(layout.widget_min.x + 2, layout.widget_max.x - 2 - w));
    dl->AddText(ImVec2(x, y), text, layout.x_label.c_str());
  }
}

}  // namespace

void draw_axes(ImDrawList* dl, const PlotLayout& layout) {
  dl->AddRectFilled(layout.area_min, layout.area_max, style_color(ImGuiCol_FrameBg));
  draw_x_ticks(dl, layout);
  draw_y_ticks(dl, layout);
  dl->AddRect(layout.area_min, layout.area_max, style_color(ImGuiCol_Text, 0.6f));
  draw_titles(dl, layout);
}

namespace {

// One filled rectangle per cell, beneath the series (2-D sweeps); NaN cells (not computed yet) are grey.
void draw_heatmap(ImDrawList* dl, const Heatmap& h, const PlotLayout& layout) {
  for (const HeatCell& c : heat_cells(h)) {
    const ImVec2 a = to_screen(layout, c.x0, c.y0), b = to_screen(layout, c.x1, c.y1);
    dl->AddRectFilled(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)),
                      ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)), to_imgui_color(c.color));
  }
}

}  // namespace

void draw_series(ImDrawList* dl, const Plot& plot, const PlotLayout& layout) {
  dl->PushClipRect(layout.area_min, layout.area_max, true);
  draw_heatmap(dl, plot.heatmap, layout);
  for (bool faded_pass : {true, false}) {  // pinned reference sweeps go behind the live ones
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
      const Series& s = plot.series[i];
      if (!layout.shown[i] || s.faded != faded_pass) continue;
      draw_one_series(dl, s, layout, to_imgui_color(layout.colors[i], s.faded ? kFadedAlpha : 1.0f));
    }
  }
  dl->PopClipRect();
}

void draw_off_scale(ImDrawList* dl, const Plot& plot, const PlotLayout& layout) {
  const std::vector<OffScalePoint> points = off_scale_points(
      plot, layout.shown, layout.xmap.scale, layout.ymap.scale, layout.xmap.view, layout.ymap.view);
  for (const OffScalePoint& p : points) {
    const float x = static_cast<float>(layout.xmap.to_pixel(p.x));
    const float edge = p.above ? layout.area_min.y : layout.area_max.y, dir = p.above ? 1.0f : -1.0f;
    dl->AddTriangleFilled(ImVec2(x, edge + dir), ImVec2(x - 3.5f, edge + 7.0f * dir),
                          ImVec2(x + 3.5f, edge + 7.0f * dir), to_imgui_color(layout.colors[p.series]));
  }
}

void draw_vertical_markers(ImDrawList* dl, const Plot& plot, const PlotLayout& layout) {
  dl->PushClipRect(layout.area_min, layout.area_max, true);
  for (double v : plot.vertical_markers) {
    if (!drawable_on(v, layout.xmap.scale)) continue;
    const float px = static_cast<float>(std::clamp(layout.xmap.to_pixel(v), -1e6, 1e6));
    draw_dashed(dl, {ImVec2(px, layout.area_min.y), ImVec2(px, layout.area_max.y)},
                style_color(ImGuiCol_Text, 0.8f), 1.0f);
  }
  dl->PopClipRect();
}

void draw_legend(ImDrawList* dl, const Plot& plot, const PlotLayout& layout) {
  for (const LegendEntry& e : layout.legend) {
    const Series& s = plot.series[e.series];
    const float alpha = e.hidden ? 0.3f : (s.faded ? 0.6f : 1.0f);
    const float cy = (e.min.y + e.max.y) / 2;
    const ImU32 color = to_imgui_color(layout.colors[e.series], alpha);
    if (s.dashed) {
      draw_dashed(dl, {ImVec2(e.min.x + 4, cy), ImVec2(e.min.x + 28, cy)}, color, 2.0f);
    } else {
      dl->AddLine(ImVec2(e.min.x + 4, cy), ImVec2(e.min.x + 28, cy), color, 2.0f);
    }
    const ImU32 text = style_color(e.hidden ? ImGuiCol_TextDisabled : ImGuiCol_Text);
    dl->AddText(ImVec2(e.min.x + 34, e.min.y + 1), text, e.label.c_str());
  }
}

void legend_tooltip(const ItemInput& in, const PlotLayout& layout) {
  if (!in.hovered) return;
  for (const LegendEntry& e : layout.legend)
    if (inside(in.mouse, e.min, e.max) && e.label != e.full_label)
      ImGui::SetTooltip("%s", e.full_label.c_str());
}

void draw_color_bar(ImDrawList* dl, const PlotLayout& layout) {
  const ColorBar& bar = layout.bar;
  if (bar.colors.empty()) return;
  const float x0 = layout.area_max.x + static_cast<float>(kColorBarGap);
  const float x1 = x0 + static_cast<float>(kColorBarWidth);
  const float top = layout.area_min.y, bottom = layout.area_max.y, h = bottom - top;
  const float step = h / static_cast<float>(bar.colors.size());
  for (std::size_t k = 0; k < bar.colors.size(); ++k) {
    const float y1 = bottom - step * static_cast<float>(k), y0 = y1 - step;
    dl->AddRectFilled(ImVec2(x0, std::floor(y0)), ImVec2(x1, std::ceil(y1)), to_imgui_color(bar.colors[k]));
  }
  dl->AddRect(ImVec2(x0, top), ImVec2(x1, bottom), style_color(ImGuiCol_Text, 0.6f));
  const float line = ImGui::GetTextLineHeight();
  const double span = bar.range.hi - bar.range.lo;
  for (const Tick& t : bar.ticks) {
    const float y = bottom - static_cast<float>((t.value - bar.range.lo) / span) * h;
    dl->AddLine(ImVec2(x1, y), ImVec2(x1 + 3, y), style_color(ImGuiCol_Text));
    dl->AddText(ImVec2(x1 + static_cast<float>(kColorBarTickGap), y - line / 2), style_color(ImGuiCol_Text),
                t.label.c_str());
  }
}

void draw_hover(ImDrawList* dl, const Plot& plot, const PlotLayout& layout, const PlotViewState& state,
                const std::optional<NearestPoint>& hit) {
  if (!hit || !state.has_hover) return;
  const Series& s = plot.series[hit->series];
  dl->PushClipRect(layout.area_min, layout.area_max, true);
  dl->AddCircle(to_screen(layout, s.x[hit->index], s.y[hit->index]), 5.0f, style_color(ImGuiCol_Text), 12,
                1.5f);
  dl->PopClipRect();
  ImGui::SetTooltip("%s", state.hover_text.c_str());
}

}  // namespace sg::plot::imgui_detail
