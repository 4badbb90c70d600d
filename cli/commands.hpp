#pragma once
// Each subcommand registers itself on the app and writes its exit code when it runs:
// 0 success, 2 bad input, 1 numerical failure.
#include <CLI/CLI.hpp>

namespace sg::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;

void register_sweep(CLI::App& app, int& exit_code);
void register_simulate(CLI::App& app, int& exit_code);
void register_validate(CLI::App& app, int& exit_code);
void register_bench(CLI::App& app, int& exit_code);
void register_optimize(CLI::App& app, int& exit_code);
void register_gradient(CLI::App& app, int& exit_code);
void register_fit(CLI::App& app, int& exit_code);
void register_fit_figure(CLI::App& app, int& exit_code);
void register_sweep2d(CLI::App& app, int& exit_code);
void register_tradeoff(CLI::App& app, int& exit_code);
void register_mpc(CLI::App& app, int& exit_code);
#ifdef SOFTGRAD_HAVE_GUI
void register_screenshot(CLI::App& app, int& exit_code);
#endif

}  // namespace sg::cli
