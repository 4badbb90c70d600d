// softgrad fit-figure: several fits (`fit --out` files) in one figure, each number against the iteration,
// one line per fit: a comparison of configurations and starts, as DiffMJX's Fig. 9 compares MJX, MJX with CFD
// and DiffMJX from three starts (docs/identification.md, scripts/contactnets-fig9).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/figure_png_output.hpp"
#include "cli/scene_args.hpp"
#include "engine/io/csv_cells.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/toss_fit_figure.hpp"

namespace sg::cli {
namespace {

struct FitFigureArgs {
  std::vector<std::string> files;
  std::vector<std::string> references;  // NAME=VALUE
  std::string svg, png;
};

// One fit's steps and label from its --out file; false after printing why.
bool read_fit(const std::string& path, std::vector<std::string>* names, LabelledFit* fit) {
  std::ifstream in(path);
  nlohmann::json j;
  try {
    if (!in) throw std::runtime_error("cannot open it");
    j = nlohmann::json::parse(in);
    const std::vector<std::string> these = j.at("parameters").get<std::vector<std::string>>();
    if (!names->empty() && these != *names) {
      std::fprintf(stderr, "%s: fits other numbers than the first file\n", path.c_str());
      return false;
    }
    *names = these;
    fit->label =
        j.contains("label") ? j["label"].get<std::string>() : std::filesystem::path(path).stem().string();
    for (const nlohmann::json& s : j.at("path")) {
      FitStep step;
      step.iteration = s.at("step").get<int>();
      step.loss = s.at("loss").is_number() ? s["loss"].get<double>() : std::nan("");
      step.values = s.at("values").get<std::vector<double>>();
      fit->steps.push_back(step);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: not a fit's --out file (%s)\n", path.c_str(), e.what());
    return false;
  }
  return true;
}

int run(const FitFigureArgs& args) {
  std::vector<std::string> names;
  std::vector<LabelledFit> fits;
  for (const std::string& f : args.files) {
    LabelledFit fit;
    if (!read_fit(f, &names, &fit)) return kExitBadInput;
    fits.push_back(std::move(fit));
  }
  std::vector<double> reference(names.size(), std::nan(""));
  for (const std::string& r : args.references) {
    const auto eq = r.find('=');
    std::size_t j = 0;
    while (j < names.size() && (eq == std::string::npos || names[j] != r.substr(0, eq))) ++j;
    double v = 0.0;
    if (j == names.size() || !io::parse_number(r.substr(eq + 1), &v)) {
      std::fprintf(stderr, "--reference %s: expected NAME=VALUE with NAME one of the fitted numbers\n",
                   r.c_str());
      return kExitBadInput;
    }
    reference[j] = v;
  }
  const plot::Figure figure = toss_fit_figure(names, fits, reference);
  const int width = 480 * (static_cast<int>(names.size()) + 1), height = 560;
  if (!args.svg.empty()) {
    if (!write_output(args.svg, plot::to_svg(figure, width, height))) return kExitFailed;
    std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!args.png.empty() && !write_figure_png(figure, width, height, args.png)) return kExitFailed;
  return kExitOk;
}

}  // namespace

void register_fit_figure(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FitFigureArgs>();
  CLI::App* cmd = app.add_subcommand(
      "fit-figure",
      "Draw several fits (fit --out files) in one figure: each number and the error per iteration");
  cmd->add_option("files", args->files,
                  "fit --out JSON files; each is one line (labelled by its `label`, "
                  "from fit --label, or its file name)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option(
      "--reference", args->references,
      "NAME=VALUE: a dashed reference line for a fitted number (repeatable), e.g. the measured value");
  cmd->add_option("--svg", args->svg, "Write the figure as SVG here")->check(output_path());
  cmd->add_option("--png", args->png, "Write the figure as PNG here (headless OpenGL)")->check(output_path());
  cmd->callback([args, &exit_code] {
    if (args->svg.empty() && args->png.empty()) {
      std::fprintf(stderr, "fit-figure: give --svg or --png\n");
      exit_code = kExitBadInput;
      return;
    }
    exit_code = run(*args);
  });
}

}  // namespace sg::cli
