#include "mjcf/free_bodies.hpp"

#include "mjcf/geom_type_map.hpp"

#include <cmath>

namespace sg::mjcf {

std::vector<FreeBody> free_bodies(const mjModel* m) {
  std::vector<FreeBody> out;
  for (int b = 1; b < m->nbody; ++b) {
    if (m->body_parentid[b] != 0 || m->body_jntnum[b] != 1 || m->body_geomnum[b] != 1) continue;
    const int j = m->body_jntadr[b];
    if (m->jnt_type[j] == mjJNT_FREE) out.push_back({b, j, m->body_geomadr[b]});
  }
  return out;
}

std::optional<GeomType> body_shape(int mj_geom_type) {
  const std::optional<GeomType> t = softgrad_geom_type(mj_geom_type);
  return t == GeomType::plane ? std::nullopt : t;  // a free body's geom: every primitive but the plane
}

Vec3<double> scene_size(const mjModel* m, int geom) {
  const mjtNum* s = m->geom_size + 3 * geom;
  switch (m->geom_type[geom]) {
    case mjGEOM_SPHERE:
      return {s[0], s[0], s[0]};
    case mjGEOM_CAPSULE:
    case mjGEOM_CYLINDER:
      return {s[0], s[1], s[0]};
    default:
      return {s[0], s[1], s[2]};
  }
}

// MuJoCo's free joint: qpos = body origin (world) and orientation; qvel = the origin's linear velocity
// (world) and the angular velocity in the body frame.
mjcmp::BodyFrame geom_frame(const mjModel* m, const mjData* d, const FreeBody& b) {
  const mjtNum* q = d->qpos + m->jnt_qposadr[b.joint];
  const mjtNum* v = d->qvel + m->jnt_dofadr[b.joint];
  const mjtNum* offset = m->geom_pos + 3 * b.geom;
  const mjtNum* turn = m->geom_quat + 4 * b.geom;
  mjtNum arm[3], w_world[3], spin[3], back[4];
  mju_rotVecQuat(arm, offset, q + 3);  // body origin to geom centre, world frame
  mju_rotVecQuat(w_world, v + 3, q + 3);
  mju_cross(spin, w_world, arm);
  mju_negQuat(back, turn);
  mjcmp::BodyFrame g{};
  for (int k = 0; k < 3; ++k) {
    g.pos[k] = q[k] + arm[k];
    g.vel[k] = v[k] + spin[k];
  }
  mju_mulQuat(g.quat, q + 3, turn);
  mju_rotVecQuat(g.angvel, v + 3, back);
  return g;
}

void set_free_joint(const mjModel* m, mjData* d, const FreeBody& b, const mjcmp::BodyFrame& g) {
  mjtNum* q = d->qpos + m->jnt_qposadr[b.joint];
  mjtNum* v = d->qvel + m->jnt_dofadr[b.joint];
  const mjtNum* offset = m->geom_pos + 3 * b.geom;
  const mjtNum* turn = m->geom_quat + 4 * b.geom;
  mjtNum back[4], arm[3], w_body[3], w_world[3], spin[3];
  mju_negQuat(back, turn);
  mju_mulQuat(q + 3, g.quat, back);
  mju_normalize4(q + 3);
  mju_rotVecQuat(arm, offset, q + 3);
  mju_rotVecQuat(w_body, g.angvel, turn);
  mju_rotVecQuat(w_world, w_body, q + 3);
  mju_cross(spin, w_world, arm);
  for (int k = 0; k < 3; ++k) {
    q[k] = g.pos[k] - arm[k];
    v[k] = g.vel[k] - spin[k];
    v[3 + k] = w_body[k];
  }
}

// R = Rx(a) Ry(b) Rz(c): R02 = sin b, R12 = -sin a cos b, R22 = cos a cos b, R01 = -cos b sin c,
// R00 = cos b cos c. At cos b = 0 only a + c (or a - c) is defined; c = 0 is taken.
void euler_xyz_deg(const mjtNum quat[4], double out[3]) {
  constexpr double kDeg = 180.0 / 3.14159265358979323846;
  mjtNum r[9];
  mju_quat2Mat(r, quat);
  const double cos_b = std::hypot(r[0], r[1]);
  out[1] = std::atan2(r[2], cos_b) * kDeg;
  if (cos_b > 1e-12) {
    out[0] = std::atan2(-r[5], r[8]) * kDeg;
    out[2] = std::atan2(-r[1], r[0]) * kDeg;
  } else {
    out[0] = std::atan2(r[7], r[4]) * kDeg;
    out[2] = 0.0;
  }
}

}  // namespace sg::mjcf
