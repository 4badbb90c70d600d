#pragma once
// The explicit-pairs scene (test_tree_pairs, test_collision_option): a paddle that collides with nothing but
// through its pair strikes a ball, the ball meets the floor with its pair's own friction and rolls into a
// puck whose body pair is excluded but whose geom pair is named; the puck rests on the floor through the
// filter.
#include <string>
#include <vector>

namespace sg::test {

// The MJCF text; option_attributes go into <option> (e.g. collision="predefined").
inline std::string strike_mjcf(const std::string& option_attributes = "") {
  return R"(<mujoco>
  <option timestep="0.002" )" +
         option_attributes + R"(/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="arm" pos="0 0 0.35">
      <joint name="shoulder" axis="0 1 0" damping="0.02"/>
      <geom name="paddle" type="capsule" fromto="0 0 0 0 0 -0.25" size="0.03" contype="0" conaffinity="0"/>
    </body>
    <body name="ball" pos="0.12 0 0.05"><freejoint/><geom name="ball" size="0.05"/></body>
    <body name="puck" pos="0.4 0.01 0.03"><freejoint/>
      <geom name="puck" type="capsule" fromto="0 -0.05 0 0 0.05 0" size="0.03"/></body>
  </worldbody>
  <contact>
    <pair name="strike" geom1="paddle" geom2="ball" condim="4" friction="0.6 0.6 0.02 0.0001 0.0001"
          solref="0.01 0.8"/>
    <pair geom1="ball" geom2="floor" friction="0.3 0.9 0.005 0.0001 0.0001"/>
    <exclude body1="ball" body2="puck"/>
    <pair geom1="puck" geom2="ball" solref="-3000 -30" margin="0.002"/>
  </contact>
</mujoco>
)";
}

// The paddle's swing that starts the strike.
inline const std::vector<std::string> kStrikeSwing = {"model.tree.bodies.0.joints.0.qvel=-8"};

}  // namespace sg::test
