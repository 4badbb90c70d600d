#pragma once
// Trajectory data for tests of the trajectory objective: a scene's own body-0 positions at every `every`-th
// output, moved by `offset` so that the mismatch (and its gradient) is not zero.
#include <doctest/doctest.h>

#include <sstream>

#include "engine/gradient/trajectory_data.hpp"
#include "engine/simulate/trajectory.hpp"

namespace sg::test {

inline TrajectoryData moved_positions(const Problem& p, std::size_t every, const double (&offset)[3]) {
  const Trajectory tr = simulate_trajectory(p, p.sweep.from);
  REQUIRE(tr.status == "ok");
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,body,x,y,z\n";
  for (std::size_t i = 0; i < tr.t.size(); i += every)
    csv << tr.t[i] << ",0," << tr.q[i][0] + offset[0] << ',' << tr.q[i][1] + offset[1] << ','
        << tr.q[i][2] + offset[2] << '\n';
  TrajectoryData data;
  std::string error;
  INFO(error);
  REQUIRE(parse_trajectory_data(csv.str(), "moved", p.integrator.dt, p.integrator.steps, p.data.rigid.count,
                                &data, &error));
  return data;
}

}  // namespace sg::test
