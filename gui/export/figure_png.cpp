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
#include "render/offscreen_target.hpp"

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

// Two frames of the figure in a fresh ImGui context (the first sizes the layout, the second is drawn with
// it), each into the framebuffer `bind_target` binds. The caller's GL context must be current.
template <typename BindTarget>
bool draw_figure_frames(const plot::Figure& figure, int width, int height, BindTarget bind_target,
                        std::string* error) {
  ImGuiSession imgui(std::string(), 1.0f);
  if (!imgui.init_renderer(error)) return false;
  std::vector<plot::PlotViewState> views(figure.plots.size());
  for (int frame = 0; frame < 2; ++frame) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = 1.0f / 60.0f;
    imgui.new_frame();
    ImGui::NewFrame();
    draw_figure(figure, views, io.DisplaySize);
    ImGui::Render();
    bind_target();
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    imgui.render_draw_data();
    if (!render::check_gl("figure frame", error)) return false;
  }
  return true;
}

}  // namespace

void export_size(const plot::Figure& figure, int* width, int* height) {
  const int columns = std::max(1, figure.columns);
  const int rows = std::max(1, (static_cast<int>(figure.plots.size()) + columns - 1) / columns);
  *width = std::max(*width, 400 * columns);
  *height = std::max(*height, 300 * rows);
}

bool render_figure_to_png(const plot::Figure& figure, int width, int height, const std::string& path,
                          std::string* error) {
  auto context = render::HeadlessContext::create(width, height, error);
  if (!context) return false;
  const auto bind = [&] {
    context->make_current();
    context->bind_frame_target();
  };
  const bool ok = draw_figure_frames(figure, width, height, bind, error);
  if (ok) context->end_frame();
  return ok && render::write_png(path, width, height, context->read_rgba(), error);
}

bool render_figure_in_current_context(const plot::Figure& figure, int width, int height,
                                      const std::string& path, std::string* error) {
  ImGuiContext* caller = ImGui::GetCurrentContext();
  GLint framebuffer = 0, viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
  glGetIntegerv(GL_VIEWPORT, viewport);
  bool ok = false;
  std::vector<std::uint8_t> pixels;
  {
    render::OffscreenTarget target;
    if (target.resize(width, height, error)) {
      ok = draw_figure_frames(
          figure, width, height, [&] { target.bind(); }, error);
      if (ok) pixels = target.read_rgba();
    }
  }
  ImGui::SetCurrentContext(caller);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(framebuffer));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  return ok && render::write_png(path, width, height, pixels, error);
}

}  // namespace sg::gui
