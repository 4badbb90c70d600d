#pragma once
// Writes plots into the output folder: the figure as SVG, each plot as CSV, all plots as one JSON file.
// Each function returns a status line naming the file(s) written, or the error.
#include <filesystem>
#include <string>

#include "plots/plot.hpp"

namespace sg::gui {

// What a panel's export buttons (or a plot's context menu) asked for.
enum class ExportKind { none, png, svg, csv, json };

std::string export_svg(const plot::Figure& figure, const std::filesystem::path& folder,
                       const std::string& stem);
std::string export_csv(const plot::Figure& figure, const std::filesystem::path& folder,
                       const std::string& stem);
std::string export_json(const plot::Figure& figure, const std::filesystem::path& folder,
                        const std::string& stem);

// "Loss: AD vs FD" -> "loss_ad_vs_fd" (file-name friendly).
std::string slug(const std::string& title);

}  // namespace sg::gui
