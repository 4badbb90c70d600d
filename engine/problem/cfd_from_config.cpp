#include "engine/problem/cfd_from_config.hpp"

namespace sg {

CfdParams<double> read_cfd(const nlohmann::json& contact) {
  const nlohmann::json& cfd = contact.at("cfd");
  CfdParams<double> p;
  p.enabled = cfd.at("enabled").get<bool>();
  p.straight_through = cfd.at("mode").get<std::string>() == "straight_through";
  p.surrogate_events = cfd.at("surrogate_events").get<bool>();
  for (int i = 0; i < 5; ++i) p.solimp[i] = cfd.at("solimp").at(i).get<double>();
  p.beta = cfd.at("beta").get<double>();
  return p;
}

}  // namespace sg
