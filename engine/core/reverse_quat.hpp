#pragma once
// Quaternion products, rotations, normalisation and rotation matrices of reverse-mode quaternions as fused
// tape nodes: one node per result component with the operands' components as parents, instead of a node per
// multiplication and addition (a product was 28 nodes, a rotation 18, a matrix 31). The kinematic chain of
// a joint tree makes several of each per body and evaluation. Values are computed by quat.hpp's generic
// expressions, so they match a double run bit for bit.
#include "engine/core/mat3.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/reverse.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

namespace rev_quat_detail {

// A node of value v whose parents are the four components of q (partials dq) and of p (partials dp).
inline Rev node8(double v, const Quat<Rev>& q, const double dq[4], const Quat<Rev>& p, const double dp[4]) {
  const RevLink parents[8] = {{q.w.i, dq[0]}, {q.x.i, dq[1]}, {q.y.i, dq[2]}, {q.z.i, dq[3]},
                              {p.w.i, dp[0]}, {p.x.i, dp[1]}, {p.y.i, dp[2]}, {p.z.i, dp[3]}};
  return rev_combine(v, 8, parents);
}

// A node of value v whose parents are the four components of q (partials dq).
inline Rev node4(double v, const Quat<Rev>& q, double dw, double dx, double dy, double dz) {
  const RevLink parents[4] = {{q.w.i, dw}, {q.x.i, dx}, {q.y.i, dy}, {q.z.i, dz}};
  return rev_combine(v, 4, parents);
}

}  // namespace rev_quat_detail

inline Quat<Rev> operator*(const Quat<Rev>& a, const Quat<Rev>& b) {
  using rev_quat_detail::node8;
  const double aw = a.w.v, ax = a.x.v, ay = a.y.v, az = a.z.v;
  const double bw = b.w.v, bx = b.x.v, by = b.y.v, bz = b.z.v;
  const double dw_a[4] = {bw, -bx, -by, -bz}, dw_b[4] = {aw, -ax, -ay, -az};
  const double dx_a[4] = {bx, bw, bz, -by}, dx_b[4] = {ax, aw, -az, ay};
  const double dy_a[4] = {by, -bz, bw, bx}, dy_b[4] = {ay, az, aw, -ax};
  const double dz_a[4] = {bz, by, -bx, bw}, dz_b[4] = {az, -ay, ax, aw};
  return {node8(aw * bw - ax * bx - ay * by - az * bz, a, dw_a, b, dw_b),
          node8(aw * bx + ax * bw + ay * bz - az * by, a, dx_a, b, dx_b),
          node8(aw * by - ax * bz + ay * bw + az * bx, a, dy_a, b, dy_b),
          node8(aw * bz + ax * by - ay * bx + az * bw, a, dz_a, b, dz_b)};
}

inline Quat<Rev> normalized(const Quat<Rev>& q) {
  using rev_quat_detail::node4;
  const double c[4] = {q.w.v, q.x.v, q.y.v, q.z.v};
  const double inv = 1.0 / std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3]);
  const double inv3 = inv * inv * inv;
  // d (q_k / |q|) / d q_j = delta_kj / |q| - q_k q_j / |q|^3.
  double v[4], d[4][4];
  for (int k = 0; k < 4; ++k) {
    v[k] = c[k] * inv;
    for (int j = 0; j < 4; ++j) d[k][j] = (k == j ? inv : 0.0) - c[k] * c[j] * inv3;
  }
  return {
      node4(v[0], q, d[0][0], d[0][1], d[0][2], d[0][3]), node4(v[1], q, d[1][0], d[1][1], d[1][2], d[1][3]),
      node4(v[2], q, d[2][0], d[2][1], d[2][2], d[2][3]), node4(v[3], q, d[3][0], d[3][1], d[3][2], d[3][3])};
}

inline Mat3<Rev> to_mat3(const Quat<Rev>& q) {
  using rev_quat_detail::node4;
  const double w = q.w.v, x = q.x.v, y = q.y.v, z = q.z.v;
  const double ww = w * w, xx = x * x, yy = y * y, zz = z * z;
  const double xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  const double w2 = 2.0 * w, x2 = 2.0 * x, y2 = 2.0 * y, z2 = 2.0 * z;
  Mat3<Rev> r;
  r.m[0][0] = node4(ww + xx - yy - zz, q, w2, x2, -y2, -z2);
  r.m[0][1] = node4(2.0 * (xy - wz), q, -z2, y2, x2, -w2);
  r.m[0][2] = node4(2.0 * (xz + wy), q, y2, z2, w2, x2);
  r.m[1][0] = node4(2.0 * (xy + wz), q, z2, y2, x2, w2);
  r.m[1][1] = node4(ww - xx + yy - zz, q, w2, -x2, y2, -z2);
  r.m[1][2] = node4(2.0 * (yz - wx), q, -x2, -w2, z2, y2);
  r.m[2][0] = node4(2.0 * (xz - wy), q, -y2, z2, -w2, x2);
  r.m[2][1] = node4(2.0 * (yz + wx), q, x2, w2, z2, y2);
  r.m[2][2] = node4(ww - xx - yy + zz, q, w2, -x2, -y2, z2);
  return r;
}

// rotate(q, v) = v + 2 u x t with t = u x v + w v (quat.hpp): d/dv = I + 2 [u]x ([u]x + w I),
// d/dw = 2 u x v, d/du_k = 2 (e_k x t + u x (e_k x v)).
inline Vec3<Rev> rotate(const Quat<Rev>& q, const Vec3<Rev>& v) {
  const Vec3<double> u(q.x.v, q.y.v, q.z.v), vv(v.x.v, v.y.v, v.z.v);
  const double w = q.w.v;
  const Vec3<double> t = cross(u, vv) + vv * w;
  const Vec3<double> r = vv + cross(u, t) * 2.0;
  const Vec3<double> dw = cross(u, vv) * 2.0;
  Vec3<double> du[3], dv[3];
  for (int k = 0; k < 3; ++k) {
    Vec3<double> e{};
    e[k] = 1.0;
    du[k] = (cross(e, t) + cross(u, cross(e, vv))) * 2.0;
    dv[k] = e + cross(u, cross(u, e) + e * w) * 2.0;
  }
  Vec3<Rev> out;
  for (int c = 0; c < 3; ++c) {
    const RevLink parents[7] = {{q.w.i, dw[c]},    {q.x.i, du[0][c]}, {q.y.i, du[1][c]}, {q.z.i, du[2][c]},
                                {v.x.i, dv[0][c]}, {v.y.i, dv[1][c]}, {v.z.i, dv[2][c]}};
    out[c] = rev_combine(r[c], 7, parents);
  }
  return out;
}

}  // namespace sg
