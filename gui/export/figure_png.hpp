#pragma once
// A plot figure rendered headless (EGL) with the GUI's own ImGui plot renderer into a PNG: what
// `softgrad sweep2d --png` writes, so a headless figure looks like the workbench's.
#include <string>

#include "plots/plot.hpp"

namespace sg::gui {

// Plots laid out on figure.columns columns under the figure's title. False with a message when no GL
// context can be made or the file cannot be written (the old file then stays).
bool render_figure_to_png(const plot::Figure& figure, int width, int height, const std::string& path,
                          std::string* error);

}  // namespace sg::gui
