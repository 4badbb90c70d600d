#pragma once
// Standalone SVG rendering of a Figure (headless: reports, CLI sweeps, CI artefacts).
#include <string>
#include <string_view>

#include "plots/plot.hpp"

namespace sg::plot {

// The whole figure as one SVG document, plots laid out on a grid of Figure::columns.
std::string to_svg(const Figure& figure, int width, int height);

// Writes to_svg() to `path`; on failure returns false and, if given, fills *error.
bool write_svg(const Figure& figure, const std::string& path, int width, int height,
               std::string* error = nullptr);

// Escapes &, <, >, " and ' for XML text and attribute values.
std::string xml_escape(std::string_view text);

}  // namespace sg::plot
