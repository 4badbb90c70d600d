#pragma once
// MuJoCo 2.2.2's site transmission (mj_transmission's mjTRN_SITE): a wrench gear[0..5] (force, then torque)
// in the site's frame applied at the site. Without a reference site the length is 0 and the moment row is
// the site's Jacobians projected on the world wrench. With one (refsite) both are taken relative to it:
// the translational length is the site's position in the reference site's frame along gear[0..2], the
// rotational one the rotation vector between their orientations along gear[3..5], the Jacobians are the
// differences with the reference site's, and the wrench is expressed through the reference site's frame.
// As 2.2.2, the orientations of the rotational length multiply the site's quat by its body's xquat in
// that order (mj_transmission's mju_mulQuat(quat, site_quat, xquat)), and each part is skipped when its
// three gears are all 0 (mju_isZero).
#include "engine/articulated/actuator_data.hpp"
#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/rotation_vector.hpp"
#include "engine/articulated/tendon.hpp"
#include "engine/articulated/tree_data.hpp"

namespace sg {

namespace site_transmission_detail {

template <class S>
bool all_zero(const S* g) {
  return value(g[0]) == 0.0 && value(g[1]) == 0.0 && value(g[2]) == 0.0;
}

// moment[j] += sum_k jac[k][j] w[k] over 3 x nv (mju_mulMatTVec's order).
template <class S>
void add_projected(int nv, const S* jac, const Vec3<S>& w, S* moment) {
  for (int j = 0; j < nv; ++j) {
    S sum = 0.0;
    for (int k = 0; k < 3; ++k) sum += jac[k * nv + j] * w[k];
    moment[j] += sum;
  }
}

// 2.2.2's site orientation for the rotational length: site quat (x) body xquat.
template <class S>
Quat<S> site_quat_in_transmission(const TreeTendonModel<S>& tm, const TreeData<S>& d, int id) {
  return tm.site[id].quat * d.xquat[tm.site[id].body];
}

}  // namespace site_transmission_detail

// Actuator i's length and moment row (site_xpos must be current: tree_site_kinematics).
template <class S>
void tree_site_transmission(const TreeModel<S>& m, const TreeActuatorModel<S>& am, const TreeData<S>& d,
                            TreeActuatorData<S>& ad, int i) {
  using namespace site_transmission_detail;
  const TreeActuator<S>& a = am.actuator[i];
  const TreeTendonModel<S>& tm = am.ten;
  const int id = a.joint, ref = a.refsite, nv = m.nv;
  S* moment = ad.actuator_moment + i * nv;
  S jac[3 * kMaxDofs], jac_rot[3 * kMaxDofs];
  tree_jac(m, d, ad.ten.site_xpos[id], tm.site[id].body, jac, jac_rot);
  ad.actuator_length[i] = 0.0;
  if (ref < 0) {
    const Mat3<S> r = tree_site_xmat(tm, d, id);
    add_projected(nv, jac, r * Vec3<S>{a.gear[0], a.gear[1], a.gear[2]}, moment);
    add_projected(nv, jac_rot, r * Vec3<S>{a.gear[3], a.gear[4], a.gear[5]}, moment);
    return;
  }
  const Mat3<S> r_ref = tree_site_xmat(tm, d, ref);
  S jac_ref[3 * kMaxDofs], jac_ref_rot[3 * kMaxDofs];
  tree_jac(m, d, ad.ten.site_xpos[ref], tm.site[ref].body, jac_ref, jac_ref_rot);
  if (!all_zero(a.gear)) {
    const Vec3<S> local = mul_transpose(r_ref, ad.ten.site_xpos[id] - ad.ten.site_xpos[ref]);
    ad.actuator_length[i] += local.x * a.gear[0] + local.y * a.gear[1] + local.z * a.gear[2];
    for (int k = 0; k < 3 * nv; ++k) jac[k] -= jac_ref[k];
    add_projected(nv, jac, r_ref * Vec3<S>{a.gear[0], a.gear[1], a.gear[2]}, moment);
  }
  if (!all_zero(a.gear + 3)) {
    const Quat<S> dif =
        conjugate(site_quat_in_transmission(tm, d, ref)) * site_quat_in_transmission(tm, d, id);
    const S q[4] = {dif.w, dif.x, dif.y, dif.z};
    const Vec3<S> rot = quat_rotation_vector(q);
    ad.actuator_length[i] += rot.x * a.gear[3] + rot.y * a.gear[4] + rot.z * a.gear[5];
    for (int k = 0; k < 3 * nv; ++k) jac_rot[k] -= jac_ref_rot[k];
    add_projected(nv, jac_rot, r_ref * Vec3<S>{a.gear[3], a.gear[4], a.gear[5]}, moment);
  }
}

}  // namespace sg
