// softgrad: the headless command line of the differentiable contact simulation workbench.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

int main(int argc, char** argv) {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();  // scenes with model.type "mjcf"
#endif
  CLI::App app{"softgrad: differentiable contact simulation workbench (headless commands)"};
  app.require_subcommand(1);
  int exit_code = sg::cli::kExitOk;
  sg::cli::register_sweep(app, exit_code);
  sg::cli::register_simulate(app, exit_code);
  sg::cli::register_validate(app, exit_code);
  sg::cli::register_bench(app, exit_code);
  sg::cli::register_optimize(app, exit_code);
  sg::cli::register_gradient(app, exit_code);
  sg::cli::register_fit(app, exit_code);
  sg::cli::register_fit_figure(app, exit_code);
  sg::cli::register_sweep2d(app, exit_code);
  sg::cli::register_tradeoff(app, exit_code);
  sg::cli::register_mpc(app, exit_code);
#ifdef SOFTGRAD_HAVE_GUI
  sg::cli::register_screenshot(app, exit_code);
#endif
  // An unknown first word is named, with the commands there are (CLI11 would only say one is required).
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known = known || sub->get_name() == argv[1];
    }
    if (!known) {
      std::fprintf(stderr, "softgrad: unknown command '%s'; the commands are %s (softgrad --help)\n", argv[1],
                   names.c_str());
      return sg::cli::kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? sg::cli::kExitOk : sg::cli::kExitBadInput;
  }
  return exit_code;
}
