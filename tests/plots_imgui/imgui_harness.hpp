#pragma once
// Headless Dear ImGui frames for testing the plot widget: a context with a built font atlas, one window,
// scripted mouse input, and the widget's layout recomputed for the frame so tests can aim at pixels.
#include <imgui.h>

#include <cfloat>

#include "plots/imgui_plot.hpp"
#include "plots/imgui_plot_internal.hpp"

namespace sg::plot::testing {

struct MouseInput {
  ImVec2 pos{-FLT_MAX, -FLT_MAX};  // off-screen by default
  bool left_down = false;
  bool right_down = false;
  float wheel = 0.0f;
};

struct FrameResult {
  PlotInteraction interaction;
  int vertex_count = 0;
  imgui_detail::PlotLayout layout;  // as drawn at the end of the frame
  std::vector<imgui_detail::LegendEntry> legend;
  bool any_popup_open = false;
};

class ImGuiHarness {
 public:
  static constexpr float kWidth = 800, kHeight = 600;
  static constexpr float kPlotWidth = 600, kPlotHeight = 400;

  ImGuiHarness() {
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(kWidth, kHeight);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~ImGuiHarness() { ImGui::DestroyContext(context_); }
  ImGuiHarness(const ImGuiHarness&) = delete;
  ImGuiHarness& operator=(const ImGuiHarness&) = delete;

  FrameResult frame(const Plot& plot, PlotViewState& state, const MouseInput& mouse = {}) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = mouse.pos;
    io.MouseDown[0] = mouse.left_down;
    io.MouseDown[1] = mouse.right_down;
    io.MouseWheel = mouse.wheel;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(kWidth, kHeight));
    ImGui::Begin("plot test", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    FrameResult result;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    result.interaction = draw_plot_imgui("plot", plot, state, ImVec2(kPlotWidth, kPlotHeight));
    result.layout =
        imgui_detail::make_layout(plot, state, origin, ImVec2(origin.x + kPlotWidth, origin.y + kPlotHeight));
    result.legend = result.layout.legend;
    result.any_popup_open = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
    ImGui::End();
    ImGui::Render();
    result.vertex_count = ImGui::GetDrawData()->TotalVtxCount;
    return result;
  }

  // Press and release the left button at `pos` over two frames; returns the release frame.
  FrameResult click(const Plot& plot, PlotViewState& state, ImVec2 pos) {
    frame(plot, state, {pos, true});
    return frame(plot, state, {pos, false});
  }

 private:
  ImGuiContext* context_ = nullptr;
};

inline ImVec2 area_center(const imgui_detail::PlotLayout& layout) {
  return ImVec2((layout.area_min.x + layout.area_max.x) / 2, (layout.area_min.y + layout.area_max.y) / 2);
}

}  // namespace sg::plot::testing
