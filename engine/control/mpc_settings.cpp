#include "engine/control/mpc_settings.hpp"

namespace sg {

MpcSettings mpc_settings(const Problem& problem) {
  const nlohmann::json& c = problem.config.at("mpc");
  MpcSettings s;
  s.planner = c.at("planner").get<std::string>() == "sampling" ? Planner::sampling : Planner::gradient;
  s.horizon = c.at("horizon").get<long>();
  s.execute = c.at("execute").get<long>();
  s.duration = c.at("duration").get<long>();
  s.knots = c.at("knots").get<long>();
  s.iterations = c.at("iterations").get<long>();
  s.lr = c.at("lr").get<double>();
  s.clip = c.at("clip").get<double>();
  s.samples = c.at("samples").get<long>();
  s.noise = c.at("noise").get<double>();
  s.noise_kind = c.at("noise_kind").get<std::string>() == "brown" ? PlanNoise::brown : PlanNoise::white;
  s.seed = c.at("seed").get<unsigned long>();
  s.success = c.at("success").get<double>();
  s.effort = c.at("effort").get<double>();
  s.running_cost = c.at("cost").get<std::string>() == "mean";
  s.execute_cfd = c.at("execute_cfd").get<bool>();
  return s;
}

}  // namespace sg
