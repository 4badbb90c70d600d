#pragma once
// `--png` for the sweep commands: the figure drawn by the GUI's plot renderer, headless (EGL). Builds without
// the GUI library report that --png is unavailable and point to --svg.
#include <string>

#include "plots/plot.hpp"

namespace sg::cli {

// Prints "plot: PATH" on success, the reason on stderr otherwise.
bool write_figure_png(const plot::Figure& figure, int width, int height, const std::string& path);

}  // namespace sg::cli
