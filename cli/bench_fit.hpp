#pragma once
// `softgrad bench --only fit`: a fit of 100 numbers at once, with forward and reverse gradients.
#include <string>

namespace sg::cli {

// Prints a markdown table; scenes is the folder with the shipped scenes. rounds: best of.
void bench_many_parameter_fit(const std::string& scenes, int rounds);

}  // namespace sg::cli
