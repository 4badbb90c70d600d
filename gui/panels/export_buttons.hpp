#pragma once
// The row of export buttons the plot tabs share: a caption, then PNG, SVG, CSV and JSON on the same line.
#include "gui/export/plot_export.hpp"

namespace sg::gui {

// Draws the caption and the four buttons; returns the one clicked this frame, else ExportKind::none.
ExportKind draw_export_buttons(const char* caption);

}  // namespace sg::gui
