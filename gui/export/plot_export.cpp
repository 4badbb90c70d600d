#include "gui/export/plot_export.hpp"

#include <cctype>

#include "gui/document/atomic_file.hpp"
#include "plots/csv_json.hpp"
#include "plots/svg.hpp"

namespace sg::gui {

namespace {

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::string error;
  if (!write_file_atomic(path, text, &error)) return "export failed: " + error;
  return "wrote " + path.string();
}

}  // namespace

std::string slug(const std::string& title) {
  std::string out;
  for (char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "plot" : out;
}

std::string export_svg(const plot::Figure& figure, const std::filesystem::path& folder,
                       const std::string& stem) {
  const int rows = (static_cast<int>(figure.plots.size()) + figure.columns - 1) / std::max(figure.columns, 1);
  return write(folder / (stem + ".svg"), plot::to_svg(figure, 420 * figure.columns, 320 * std::max(rows, 1)));
}

std::string export_csv(const plot::Figure& figure, const std::filesystem::path& folder,
                       const std::string& stem) {
  std::string status;
  for (const plot::Plot& p : figure.plots) {
    const std::filesystem::path path = folder / (stem + "_" + slug(p.title) + ".csv");
    status = write(path, plot::plot_to_csv(p));
    if (status.rfind("wrote", 0) != 0) return status;
  }
  if (figure.plots.size() > 1) return "wrote " + (folder / (stem + "_*.csv")).string();
  return status;
}

std::string export_json(const plot::Figure& figure, const std::filesystem::path& folder,
                        const std::string& stem) {
  nlohmann::json doc = {{"title", figure.title}, {"plots", nlohmann::json::array()}};
  for (const plot::Plot& p : figure.plots) doc["plots"].push_back(plot::plot_to_json(p));
  return write(folder / (stem + ".json"), doc.dump(1) + "\n");
}

}  // namespace sg::gui
