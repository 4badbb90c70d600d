#include "gui/export/figure_png.hpp"

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <vector>

#include "gui/app/imgui_session.hpp"
#include "plots/imgui_plot.hpp"
#include "render/gl_check.hpp"
#include "render/headless_context.hpp"
#include "render/image_io.hpp"

namespace sg::gui {
namespace {

void draw_figure(const plot::Figure& figure, std::vector<plot::PlotViewState>& views, ImVec2 display) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::Begin("figure", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
  if (!figure.title.empty()) ImGui::TextUnformatted(figure.title.c_str());
  const int columns = std::max(1, figure.columns);
  const int rows = (static_cast<int>(figure.plots.size()) + columns - 1) / columns;
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float w =
      (room.x - static_cast<float>(columns - 1) * style.ItemSpacing.x) / static_cast<float>(columns);
  const float h = (room.y - static_cast<float>(std::max(rows - 1, 0)) * style.ItemSpacing.y) /
                  static_cast<float>(std::max(rows, 1));
  for (std::size_t i = 0; i < figure.plots.size(); ++i) {
    if (i % static_cast<std::size_t>(columns) != 0) ImGui::SameLine();
    plot::draw_plot_imgui(("plot" + std::to_string(i)).c_str(), figure.plots[i], views[i],
                          ImVec2(std::max(w, 40.0f), std::max(h, 40.0f)));
  }
  ImGui::End();
}

}  // namespace

bool render_figure_to_png(const plot::Figure& figure, int width, int height, const std::string& path,
                          std::string* error) {
  auto context = render::HeadlessContext::create(width, height, error);
  if (!context) return false;
  bool ok = true;
  {
    ImGuiSession imgui(std::string(), 1.0f);
    if (!imgui.init_renderer(error)) return false;
    std::vector<plot::PlotViewState> views(figure.plots.size());
    // Two frames: the first sizes the layout, the second is drawn with it.
    for (int frame = 0; frame < 2 && ok; ++frame) {
      context->make_current();
      ImGuiIO& io = ImGui::GetIO();
      io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
      io.DeltaTime = 1.0f / 60.0f;
      imgui.new_frame();
      ImGui::NewFrame();
      draw_figure(figure, views, io.DisplaySize);
      ImGui::Render();
      context->bind_frame_target();
      glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      imgui.render_draw_data();
      context->end_frame();
      ok = render::check_gl("figure frame", error);
    }
  }
  return ok && render::write_png(path, width, height, context->read_rgba(), error);
}

}  // namespace sg::gui
