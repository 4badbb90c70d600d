#pragma once
// One recorded trajectory at a given sweep value: states at every output time, the accepted internal step
// sizes, the contact force on each particle, and the loss with its forward-mode gradient.
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg {

struct Trajectory {
  double value = 0.0;                         // the swept parameter
  std::vector<double> t;                      // output times
  std::vector<std::vector<double>> q, v;      // per output time: 3 per particle
  std::vector<std::vector<double>> force;     // per output time: normal contact force per particle
  std::vector<double> dt;                     // accepted internal step sizes
  double loss = 0.0, grad = 0.0;
  std::string status = "ok";
  long accepted = 0, rejected = 0;
};

Trajectory simulate_trajectory(const Problem& problem, double value);

nlohmann::json trajectory_to_json(const Trajectory& tr);

}  // namespace sg
