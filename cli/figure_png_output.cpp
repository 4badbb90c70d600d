#include "cli/figure_png_output.hpp"

#include <cstdio>

#ifdef SOFTGRAD_HAVE_GUI
#include "gui/export/figure_png.hpp"
#endif

namespace sg::cli {

bool write_figure_png(const plot::Figure& figure, int width, int height, const std::string& path) {
#ifdef SOFTGRAD_HAVE_GUI
  std::string error;
  if (!gui::render_figure_to_png(figure, width, height, path, &error)) {
    std::fprintf(stderr, "--png %s: %s\n", path.c_str(), error.c_str());
    return false;
  }
  std::printf("plot: %s\n", path.c_str());
  return true;
#else
  (void)figure;
  (void)width;
  (void)height;
  std::fprintf(stderr,
               "--png %s: this softgrad was built without the GUI library (SOFTGRAD_GUI=OFF); use --svg\n",
               path.c_str());
  return false;
#endif
}

}  // namespace sg::cli
