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

// The pixel size of a figure exported from a region of `width` x `height` pixels on screen: that size, but at
// least 400 x 300 per plot (on figure.columns columns), so that a figure exported from a small panel is
// still readable.
void export_size(const plot::Figure& figure, int* width, int* height);

// The same figure drawn in the GL context that is current (the workbench's window), into an offscreen
// framebuffer with an ImGui context of its own: the figure itself, without the panel's buttons. The caller's
// ImGui context, framebuffer binding and viewport are restored. Call between ImGui frames.
bool render_figure_in_current_context(const plot::Figure& figure, int width, int height,
                                      const std::string& path, std::string* error);

}  // namespace sg::gui
