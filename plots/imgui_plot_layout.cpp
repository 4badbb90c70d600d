// Layout of the ImGui plot widget: view syncing, margins, axis maps and legend geometry.
#include <algorithm>
#include <string>

#include "plots/imgui_plot_internal.hpp"

namespace sg::plot {

Scale effective_x_scale(const Plot& plot, const PlotViewState& state) {
  return state.x_scale.value_or(plot.x.scale);
}

Scale effective_y_scale(const Plot& plot, const PlotViewState& state) {
  return state.y_scale.value_or(plot.y.scale);
}

namespace imgui_detail {
namespace {

bool valid_view(double lo, double hi, Scale scale) {
  return drawable_on(lo, scale) && drawable_on(hi, scale) && lo < hi;
}

}  // namespace

bool inside(ImVec2 p, ImVec2 min, ImVec2 max) {
  return p.x >= min.x && p.x < max.x && p.y >= min.y && p.y < max.y;
}

ImU32 to_imgui_color(Color c, float alpha_scale) {
  return IM_COL32(c.r, c.g, c.b, static_cast<int>(static_cast<float>(c.a) * alpha_scale));
}

void sync_view(const Plot& plot, PlotViewState& state, const std::vector<bool>& shown) {
  const Scale xs = effective_x_scale(plot, state), ys = effective_y_scale(plot, state);
  // A manual view that is unusable on the current scale (e.g. negative on log) falls back to autofit.
  if (state.autofit || !valid_view(state.x_min, state.x_max, xs) ||
      !valid_view(state.y_min, state.y_max, ys)) {
    const Range x = auto_view(plot, AxisId::x, xs, shown), y = auto_view(plot, AxisId::y, ys, shown);
    state.x_min = x.lo;
    state.x_max = x.hi;
    state.y_min = y.lo;
    state.y_max = y.hi;
    state.autofit = true;
  }
}

namespace {

// Places title and y label (see PlotLayout); returns whether the label needs a row of its own.
bool place_top_text(const Plot& plot, ImVec2 widget_min, ImVec2 widget_max, float area_center_x,
                    PlotLayout& layout) {
  const float line = ImGui::GetTextLineHeight();
  const float left = widget_min.x + 4.0f, right = widget_max.x - 4.0f, gap = ImGui::CalcTextSize("  ").x;
  layout.title = fit_head(plot.title, right - left);
  const float title_w = ImGui::CalcTextSize(layout.title.c_str()).x;
  float title_x = std::clamp(area_center_x - title_w / 2, left, std::max(left, right - title_w));
  layout.y_label = plot.y.label;
  layout.y_label_pos = ImVec2(left, widget_min.y + 4.0f);
  bool own_row = false;
  if (!layout.title.empty() && !layout.y_label.empty()) {
    const float label_w = ImGui::CalcTextSize(layout.y_label.c_str()).x;
    if (left + label_w + gap > title_x) {
      if (left + label_w + gap + title_w <= right) {
        title_x = left + label_w + gap;  // slide the title right, off its centre
      } else if (widget_max.y - widget_min.y >= 9.0f * line) {
        own_row = true;  // tall enough: the label goes under the title
        layout.y_label = fit_tail(layout.y_label, right - left);
        layout.y_label_pos.y += line + 2.0f;
      } else {
        layout.y_label = fit_tail(layout.y_label, title_x - gap - left);
      }
    }
  } else if (!layout.y_label.empty()) {
    layout.y_label = fit_tail(layout.y_label, right - left);
  }
  layout.title_pos = ImVec2(title_x, widget_min.y + 4.0f);
  return own_row;
}

// Legend entries flowed left to right in rows from (left, top), wrapping at right, each label at most
// label_cap pixels wide; returns the rows' height.
float flow_legend(const std::vector<LegendItem>& items, const PlotViewState& state, float left, float right,
                  float top, float label_cap, PlotLayout& layout) {
  layout.legend.clear();
  const float row = ImGui::GetTextLineHeight() + 2.0f, sample = 34.0f, gap = 10.0f;
  float x = left, y = top;
  for (const LegendItem& item : items) {
    LegendEntry e;
    e.series = item.series;
    e.key = item.key;
    e.full_label = item.label;
    e.label = fit_middle(item.label, std::min(label_cap, std::max(0.0f, right - left - sample)));
    e.hidden = std::find(state.hidden_series.begin(), state.hidden_series.end(), item.key) !=
               state.hidden_series.end();
    const float width = sample + ImGui::CalcTextSize(e.label.c_str()).x + gap;
    if (x > left && x + width > right) {
      x = left;
      y += row;
    }
    e.min = ImVec2(x, y);
    e.max = ImVec2(x + width, y + row);
    x += width;
    layout.legend.push_back(std::move(e));
  }
  return layout.legend.empty() ? 0.0f : y + row - top;
}

// The legend with whole labels where they fit in max_height, else with labels shortened step by step (the
// whole label in the entry's tooltip) so that every entry keeps a place; returns the rows' height.
float place_legend(const Plot& plot, const PlotViewState& state, float left, float right, float top,
                   float max_height, PlotLayout& layout) {
  layout.legend.clear();
  if (!plot.legend) return 0.0f;
  const std::vector<LegendItem> items = legend_items(plot);
  const float em = ImGui::GetFontSize();
  float height = 0.0f;
  for (const float cap_em : {1e6f, 18.0f, 13.0f, 10.0f, 7.5f, 5.5f, 4.0f}) {
    height = flow_legend(items, state, left, right, top, cap_em * em, layout);
    if (height <= max_height) break;
  }
  return height;
}

// Pixels the colour bar takes right of the data area (none without a heatmap).
float color_bar_room(const ColorBar& bar) {
  if (bar.colors.empty()) return 0.0f;
  float widest = 0.0f;
  for (const Tick& t : bar.ticks) widest = std::max(widest, ImGui::CalcTextSize(t.label.c_str()).x);
  return static_cast<float>(kColorBarGap + kColorBarWidth + kColorBarTickGap) + widest;
}

}  // namespace

PlotLayout make_layout(const Plot& plot, const PlotViewState& state, ImVec2 widget_min, ImVec2 widget_max) {
  const float line = ImGui::GetTextLineHeight();
  const bool has_top_text = !plot.title.empty() || !plot.y.label.empty();
  const float left = ImGui::CalcTextSize("-8.88e-8").x + 10.0f;
  PlotLayout layout;
  layout.bar = heat_color_bar(plot.heatmap);
  const float right = 12.0f + color_bar_room(layout.bar);
  const float area_center_x =
      0.5f * (widget_min.x + left + std::max(widget_min.x + left + 1.0f, widget_max.x - right));
  const bool label_row = place_top_text(plot, widget_min, widget_max, area_center_x, layout);
  const float text_top = 6.0f + (has_top_text ? line + 4.0f : 0.0f) + (label_row ? line + 2.0f : 0.0f);
  // The legend sits between the title and the data area, so it never covers data. Its labels shorten until
  // it takes at most 35% of the height left for legend and data, and only past half of it do its last
  // rows go.
  const float bottom_reserved = line + 8.0f + (plot.x.label.empty() ? 0.0f : line + 4.0f);
  const float left_for_both = std::max(0.0f, widget_max.y - widget_min.y - text_top - bottom_reserved);
  const float room = left_for_both * 0.5f;
  const float legend_h = place_legend(plot, state, widget_min.x + 4.0f, widget_max.x - 4.0f,
                                      widget_min.y + text_top, left_for_both * 0.35f, layout);
  const float legend_used = std::min(legend_h, room);
  while (!layout.legend.empty() && layout.legend.back().max.y > widget_min.y + text_top + legend_used + 0.5f)
    layout.legend.pop_back();
  const float top = text_top + (legend_used > 0.0f ? legend_used + 2.0f : 0.0f);
  const float bottom = bottom_reserved;
  layout.widget_min = widget_min;
  layout.widget_max = widget_max;
  layout.x_label = fit_head(plot.x.label, widget_max.x - widget_min.x - 4.0f);
  layout.area_min = ImVec2(widget_min.x + left, widget_min.y + top);
  layout.area_max = ImVec2(std::max(layout.area_min.x + 1.0f, widget_max.x - right),
                           std::max(layout.area_min.y + 1.0f, widget_max.y - bottom));
  layout.xmap = make_axis_map(effective_x_scale(plot, state), plot.x.symlog_threshold,
                              {state.x_min, state.x_max}, layout.area_min.x, layout.area_max.x);
  layout.ymap = make_axis_map(effective_y_scale(plot, state), plot.y.symlog_threshold,
                              {state.y_min, state.y_max}, layout.area_max.y, layout.area_min.y);
  layout.shown = shown_series(plot, state.hidden_series);
  layout.colors = resolve_colors(plot);
  return layout;
}

}  // namespace imgui_detail
}  // namespace sg::plot
