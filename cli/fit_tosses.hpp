#pragma once
// softgrad fit --tosses: identification from measured tosses cut into segments
// (engine/optimize/toss_segments.hpp), with the trajectory error of whole tosses before and after.
#include <string>
#include <vector>

#include "engine/optimize/fit.hpp"
#include "engine/problem/problem.hpp"

namespace sg::cli {

struct TossFitRequest {
  std::string scene;           // for messages
  std::string tosses;          // the CSV file
  std::string select = "all";  // tosses cut into segments for the fit
  std::string evaluate =
      "first40";                    // tosses run whole for the trajectory error: a list, "first40", or "none"
  int segment = 5;                  // frames per segment
  std::vector<std::string> wrt;     // fitted numbers (a vector key ties its entries)
  std::vector<std::string> bounds;  // PATH=MIN:MAX, PATH a --wrt entry
  int print_every = 1;
  std::string out, svg, label;
  std::string replay_svg;  // a measured toss against its rollouts before and after the fit
  int replay_toss = -1;    // which (-1: the first evaluated, else the first fitted)
};

// Runs the fit with `settings` (bounds filled here); returns the exit code.
int run_toss_fit(const TossFitRequest& request, const Problem& problem, FitSettings settings);

}  // namespace sg::cli
