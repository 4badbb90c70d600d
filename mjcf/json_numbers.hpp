#pragma once
// MuJoCo's numbers as a scene key's JSON array: the importers write compiled mjModel arrays one to one.
#include <mujoco/mujoco.h>

#include <nlohmann/json.hpp>
#include <vector>

namespace sg::mjcf {

// v[0..n) as a JSON array of numbers.
inline nlohmann::json numbers(const mjtNum* v, int n) {
  return nlohmann::json(std::vector<double>(v, v + n));
}

}  // namespace sg::mjcf
