#pragma once
// MuJoCo 2.2.2's slider-crank transmission (mj_transmission's mjTRN_SLIDERCRANK): a rod of length r joins
// the crank site c to a slider that moves along the z axis a of the slider site s. With v = c - s, the
// slider's position along a is the root of |v - l a| = r nearer the site:
//   length = a'v - sqrt(det),  det = (a'v)^2 + r^2 - v'v.
// When the rod is too short (det <= 0, MuJoCo's "broken" crank) the length is a'v. The moment row is the
// chain rule through the sites' Jacobians: dl/dv jac(c - s) + dl/da jacA, with jacA column i the rotation
// Jacobian's column i crossed with a (mj_jacPointAxis). Both scaled by gear[0].
#include "engine/articulated/actuator_data.hpp"
#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/tendon.hpp"
#include "engine/articulated/tree_data.hpp"

namespace sg {

// Actuator i's length and moment row (site_xpos must be current: tree_site_kinematics).
template <class S>
void tree_slider_crank_transmission(const TreeModel<S>& m, const TreeActuatorModel<S>& am,
                                    const TreeData<S>& d, TreeActuatorData<S>& ad, int i) {
  const TreeActuator<S>& a = am.actuator[i];
  const int crank = a.joint, slider = a.slidersite, nv = m.nv;
  const Vec3<S> axis = tree_site_xmat(am.ten, d, slider).col(2);  // the slider site's z axis
  const Vec3<S> vec = ad.ten.site_xpos[crank] - ad.ten.site_xpos[slider];
  const S av = dot(vec, axis);
  const S det = av * av + a.cranklength * a.cranklength - dot(vec, vec);
  Vec3<S> dlda = vec, dldv = axis;
  S length = av;
  if (value(det) > 0.0) {
    const S sdet = sqrt(det);
    length = av - sdet;
    dldv = axis * (1.0 - av / sdet) + vec * (1.0 / sdet);
    dlda = vec * (1.0 - av / sdet);
  }
  S jac_slider[3 * kMaxDofs], jac_rot[3 * kMaxDofs], jac[3 * kMaxDofs];
  tree_jac(m, d, ad.ten.site_xpos[slider], am.ten.site[slider].body, jac_slider, jac_rot);
  tree_jac(m, d, ad.ten.site_xpos[crank], am.ten.site[crank].body, jac, static_cast<S*>(nullptr));
  S* moment = ad.actuator_moment + i * nv;
  for (int j = 0; j < nv; ++j) {
    const Vec3<S> w{jac_rot[j], jac_rot[nv + j], jac_rot[2 * nv + j]};
    const Vec3<S> jac_axis = cross(w, axis);
    S sum = moment[j];
    for (int k = 0; k < 3; ++k)
      sum += dlda[k] * jac_axis[k] + dldv[k] * (jac[k * nv + j] - jac_slider[k * nv + j]);
    moment[j] = sum * a.gear[0];
  }
  ad.actuator_length[i] = length * a.gear[0];
}

}  // namespace sg
