#pragma once
// The MJCF bodies softgrad simulates: free bodies under the world body, one geom each. softgrad's body frame
// is that geom's frame (its centre and axes), so a geom placed or turned inside its MJCF body is supported;
// these functions move states between the two frames.
#include <mujoco/mujoco.h>

#include <optional>
#include <vector>

#include "engine/collision/geom_type.hpp"
#include "engine/core/vec3.hpp"
#include "mjcf/trajectory_compare.hpp"

namespace sg::mjcf {

struct FreeBody {
  int body, joint, geom;  // MuJoCo ids
};

// Bodies with a single free joint and a single geom, in body order (softgrad's model.bodies order).
std::vector<FreeBody> free_bodies(const mjModel* m);

// softgrad's shape for a MuJoCo geom type; none for plane, mesh and height field.
std::optional<GeomType> body_shape(int mj_geom_type);

// softgrad's size vector (model.bodies.*.size): MuJoCo's, with the components the shape does not use set to
// the first (every component must be > 0 in a scene).
Vec3<double> scene_size(const mjModel* m, int geom);

// softgrad's body state (the geom frame: centre, orientation, linear velocity in the world frame, angular
// velocity in the geom frame) from the MuJoCo body's free joint in d's qpos and qvel.
mjcmp::BodyFrame geom_frame(const mjModel* m, const mjData* d, const FreeBody& b);

// The inverse: writes the free joint's qpos and qvel that put the geom in state g.
void set_free_joint(const mjModel* m, mjData* d, const FreeBody& b, const mjcmp::BodyFrame& g);

// Intrinsic xyz Euler angles in degrees (softgrad's model.bodies.*.euler) of a unit quaternion (w, x, y, z).
void euler_xyz_deg(const mjtNum quat[4], double out[3]);

}  // namespace sg::mjcf
