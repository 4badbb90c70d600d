#pragma once
// MuJoCo 2.2.2's tendon stages: site frames (mj_kinematics' site loop), mj_tendon (lengths and the dense
// Jacobian ten_J, nten x nv), the tendon velocity of mj_fwdVelocity and the tendon spring-dampers of
// mj_passive. A spatial tendon's length is the sum of its segments (straight, or tangent-arc-tangent
// around a wrap geom, tendon_wrap.hpp); its Jacobian row sums, over the segments whose ends ride on
// different bodies, the segment's direction times the difference of the end points' Jacobians.
#include <limits>

#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/tendon_data.hpp"
#include "engine/articulated/tendon_model.hpp"
#include "engine/articulated/tendon_wrap.hpp"
#include "engine/articulated/tree_data.hpp"

namespace sg {

// site_xpos: each site rides on its body's frame.
template <class S>
void tree_site_kinematics(const TreeTendonModel<S>& tm, const TreeData<S>& d, TreeTendonData<S>& td) {
  for (int i = 0; i < tm.nsite; ++i) {
    const TreeSite<S>& s = tm.site[i];
    td.site_xpos[i] = d.xmat[s.body] * s.pos + d.xpos[s.body];
  }
}

// Site `id`'s world frame: xquat (x) site quat as a matrix, as mj_local2Global computes site_xmat (the
// slider-crank's axis, a site transmission's wrench frame).
template <class S>
Mat3<S> tree_site_xmat(const TreeTendonModel<S>& tm, const TreeData<S>& d, int id) {
  return to_mat3(d.xquat[tm.site[id].body] * tm.site[id].quat);
}

namespace tendon_detail {

// Adds dir . (jac(b, to) - jac(a, from)) / divisor to row (the chain rule of |to - from| with dir its unit
// vector; mju_addToScl with 1 / divisor, a pulley's).
template <class S>
void add_segment_jacobian(const TreeModel<S>& m, const TreeData<S>& d, const Vec3<S>& from, int a,
                          const Vec3<S>& to, int b, const S& divisor, S* row) {
  const int nv = m.nv;
  const Vec3<S> dir = wrap_detail::normalized3(to - from);
  S j1[3 * kMaxDofs], j2[3 * kMaxDofs];
  tree_jac(m, d, from, a, j1, static_cast<S*>(nullptr));
  tree_jac(m, d, to, b, j2, static_cast<S*>(nullptr));
  const S scale = 1.0 / divisor;
  for (int i = 0; i < nv; ++i)
    row[i] += (dir.x * (j2[i] - j1[i]) + dir.y * (j2[nv + i] - j1[nv + i]) +
               dir.z * (j2[2 * nv + i] - j1[2 * nv + i])) *
              scale;
}

// A break in the drawn path (a pulley's): a NaN point, which the drawing skips.
template <class S>
void record_break(TreeTendonData<S>& td) {
  if (td.nwrap_xpos >= kMaxWrapPoints) return;
  for (int k = 0; k < 3; ++k) td.wrap_xpos[td.nwrap_xpos][k] = std::numeric_limits<double>::quiet_NaN();
  ++td.nwrap_xpos;
}

template <class S>
SG_INLINE S distance(const Vec3<S>& a, const Vec3<S>& b) {
  const Vec3<S> v = b - a;
  return sqrt(dot(v, v));
}

// A wrap geom's world frame from its body's.
template <class S>
void wrap_geom_frame(const TreeWrapGeom<S>& g, const TreeData<S>& d, Vec3<S>* xpos, Mat3<S>* xmat) {
  *xpos = d.xpos[g.body] + d.xmat[g.body] * g.pos;
  *xmat = to_mat3(Quat<S>(d.xquat[g.body] * g.quat));
}

template <class S>
void record_point(TreeTendonData<S>& td, const Vec3<S>& p) {
  if (td.nwrap_xpos >= kMaxWrapPoints) return;
  for (int k = 0; k < 3; ++k) td.wrap_xpos[td.nwrap_xpos][k] = value(p[k]);
  ++td.nwrap_xpos;
}

// A fixed tendon: sum of coef qpos over its joints.
template <class S>
void fixed_tendon(const TreeModel<S>& m, const TreeTendonModel<S>& tm, const TreeData<S>& d, int i,
                  TreeTendonData<S>& td) {
  const TreeTendon<S>& t = tm.tendon[i];
  S* row = td.ten_J + i * m.nv;
  for (int w = t.adr; w < t.adr + t.num; ++w) {
    const TreeJoint<S>& jn = m.joint[tm.wrap[w].id];
    td.ten_length[i] += tm.wrap[w].coef * d.qpos[jn.qpos_adr];
    row[jn.dof_adr] = tm.wrap[w].coef;
  }
}

// A spatial tendon: site to site, or site - wrap geom - site, segment by segment; a pulley divides the
// branches after it by its divisor.
template <class S>
void spatial_tendon(const TreeModel<S>& m, const TreeTendonModel<S>& tm, const TreeData<S>& d, int i,
                    TreeTendonData<S>& td) {
  const TreeTendon<S>& t = tm.tendon[i];
  S* row = td.ten_J + i * m.nv;
  S divisor = S(1.0);
  int j = 0;
  while (j < t.num - 1) {
    const TreeWrap<S>& w0 = tm.wrap[t.adr + j];
    const TreeWrap<S>& w1 = tm.wrap[t.adr + j + 1];
    if (w0.kind == WrapKind::kPulley || w1.kind == WrapKind::kPulley) {
      if (w0.kind == WrapKind::kPulley) divisor = w0.coef, record_break(td);
      ++j;
      continue;
    }
    Vec3<S> pnt[4];
    int body[4];
    pnt[0] = td.site_xpos[w0.id];
    body[0] = tm.site[w0.id].body;
    int end = w1.id;  // the site the segment ends at
    S wlen = S(-1.0);
    const bool wraps = w1.kind == WrapKind::kGeom;
    if (wraps) {
      end = tm.wrap[t.adr + j + 2].id;
      const TreeWrapGeom<S>& g = tm.geom[w1.id];
      Vec3<S> xpos;
      Mat3<S> xmat;
      wrap_geom_frame(g, d, &xpos, &xmat);
      wlen =
          tendon_wrap(pnt + 1, pnt[0], td.site_xpos[end], xpos, xmat, g.radius, g.cylinder,
                      w1.sidesite >= 0 ? &td.site_xpos[w1.sidesite] : static_cast<const Vec3<S>*>(nullptr));
    }
    const bool wrapped = value(wlen) >= 0;
    int points = 2;
    if (!wrapped) {
      pnt[1] = td.site_xpos[end];
      body[1] = tm.site[end].body;
      td.ten_length[i] += distance(pnt[0], pnt[1]) / divisor;
    } else {
      pnt[3] = td.site_xpos[end];
      body[1] = body[2] = tm.geom[w1.id].body;
      body[3] = tm.site[end].body;
      td.ten_length[i] += (distance(pnt[0], pnt[1]) + wlen + distance(pnt[2], pnt[3])) / divisor;
      points = 4;
    }
    for (int k = 0; k + 1 < points; ++k)
      if (body[k] != body[k + 1])
        add_segment_jacobian(m, d, pnt[k], body[k], pnt[k + 1], body[k + 1], divisor, row);
    for (int k = 0; k + 1 < points; ++k) record_point(td, pnt[k]);
    j += wraps ? 2 : 1;
    if (j == t.num - 1 || tm.wrap[t.adr + j + 1].kind == WrapKind::kPulley)
      record_point(td, td.site_xpos[end]);
  }
}

}  // namespace tendon_detail

// mj_tendon: ten_length and ten_J of every tendon (and the path's points, values, for drawing). Needs the
// position stage (kinematics and com positions) and tree_site_kinematics.
template <class S>
void tree_tendon(const TreeModel<S>& m, const TreeTendonModel<S>& tm, const TreeData<S>& d,
                 TreeTendonData<S>& td) {
  td.nwrap_xpos = 0;
  for (int i = 0; i < tm.ntendon; ++i) {
    td.ten_length[i] = S(0.0);
    for (int k = 0; k < m.nv; ++k) td.ten_J[i * m.nv + k] = S(0.0);
    td.ten_wrapadr[i] = td.nwrap_xpos;
    if (tm.tendon[i].spatial)
      tendon_detail::spatial_tendon(m, tm, d, i, td);
    else
      tendon_detail::fixed_tendon(m, tm, d, i, td);
    td.ten_wrapnum[i] = td.nwrap_xpos - td.ten_wrapadr[i];
  }
}

// mj_fwdVelocity's ten_velocity = ten_J qvel.
template <class S>
void tree_tendon_velocity(const TreeModel<S>& m, const TreeTendonModel<S>& tm, const TreeData<S>& d,
                          TreeTendonData<S>& td) {
  for (int i = 0; i < tm.ntendon; ++i) {
    S v = S(0.0);
    for (int k = 0; k < m.nv; ++k) v += td.ten_J[i * m.nv + k] * d.qvel[k];
    td.ten_velocity[i] = v;
  }
}

// mj_passive's tendon spring-dampers: qfrc_passive += ten_J' (-stiffness (L - lengthspring) - damping L').
template <class S>
void tree_tendon_passive(const TreeModel<S>& m, const TreeTendonModel<S>& tm, const TreeTendonData<S>& td,
                         S* qfrc_passive) {
  for (int i = 0; i < tm.ntendon; ++i) {
    const TreeTendon<S>& t = tm.tendon[i];
    const S frc = -t.stiffness * (td.ten_length[i] - t.lengthspring) - t.damping * td.ten_velocity[i];
    for (int k = 0; k < m.nv; ++k) qfrc_passive[k] += td.ten_J[i * m.nv + k] * frc;
  }
}

}  // namespace sg
