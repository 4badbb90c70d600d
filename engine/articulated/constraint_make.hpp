#pragma once
// mj_makeConstraint and mj_referenceConstraint for a joint tree (MuJoCo 2.2.2 engine_core_constraint.c):
// equality rows (constraint_equality.hpp), friction-loss rows (constraint_friction.hpp), joint-limit rows,
// then contact rows (frictionless, the pyramidal cone's edge pairs or the elliptic cone's frame rows), each
// with its Jacobian over the nv dofs, distance and margin; then the diagonal approximation, impedance,
// regulariser R and spring K, B (mj_diagApprox, mj_makeImpedance); and once velocities are known, aref.
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_equality.hpp"
#include "engine/articulated/constraint_friction.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/rotation_vector.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/core/fused_sums.hpp"

namespace sg {

namespace tree_constraint_detail {
inline constexpr double kMinVal = 1e-15;  // mjMINVAL
}

// A joint limit's row: the distance's gradient `slope` (+-1) on the joint's one dof, which is its span.
template <class S>
bool tree_add_limit_row(TreeConstraintData<S>& cd, int joint, int dof, double slope, const S& dist,
                        const S& margin) {
  const S entry = slope;
  return tree_add_row(cd, &entry, dist, margin, EfcType::kLimitJoint, joint, dof, dof + 1);
}

// A ball joint's limit row: minus the rotation's unit axis on the joint's three dofs.
template <class S>
bool tree_add_ball_limit_row(TreeConstraintData<S>& cd, int joint, int dof, const Vec3<S>& axis,
                             const S& dist, const S& margin) {
  const S entries[3] = {-axis.x, -axis.y, -axis.z};
  return tree_add_row(cd, entries, dist, margin, EfcType::kLimitJoint, joint, dof, dof + 3);
}

// A ball joint's limit distance: the larger end of its range (mju_max) minus its rotation angle, positive
// inside; axis: the rotation's unit axis. quat: the joint's qpos.
template <class S>
S tree_ball_limit_distance(const TreeLimit<S>& lim, const S* quat, Vec3<S>& axis) {
  const S& top = value(lim.range[0]) > value(lim.range[1]) ? lim.range[0] : lim.range[1];
  return top - ball_rotation_angle(quat, axis);
}

// A tendon limit's row: -side times the tendon's Jacobian (dense over nv, ten_J's row), over the span of its
// nonzeros.
template <class S>
bool tree_add_tendon_limit_row(TreeConstraintData<S>& cd, int nv, int tendon, double side, const S* ten_J,
                               const S& dist, const S& margin) {
  return tree_add_tendon_row(cd, nv, tendon, -side, ten_J, dist, margin, EfcType::kLimitTendon);
}

// The distance of side `upper` of a limit on x (a joint's qpos, a tendon's length): positive inside the
// range.
template <class S>
S tree_limit_distance(const TreeLimit<S>& lim, const S& x, int upper) {
  return upper ? S(lim.range[1] - x) : S(x - lim.range[0]);
}

// mj_instantiateLimit for hinges, slides and balls, then tendons (ten: the tendon stage's results when a
// tendon is limited): a hinge's, slide's or tendon's row per side within the margin of the range, its
// distance positive inside the range, its Jacobian -side on the joint's dof or -side times the tendon's; a
// ball's one row within the margin of its largest angle (tree_ball_limit_distance).
template <class S>
void tree_instantiate_limits(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                             TreeConstraintData<S>& cd, const TreeTendonData<S>* ten = nullptr) {
  if (!cm.opt.limit) return;
  for (int j = 0; j < m.njnt; ++j) {
    const TreeLimit<S>& lim = cm.limit[j];
    const TreeJoint<S>& jn = m.joint[j];
    if (!lim.limited) continue;
    if (jn.type == JointType::kBall) {
      Vec3<S> axis;
      const S dist = tree_ball_limit_distance(lim, d.qpos + jn.qpos_adr, axis);
      if (value(dist) < value(lim.margin) &&
          !tree_add_ball_limit_row(cd, j, jn.dof_adr, axis, dist, lim.margin))
        return;
      continue;
    }
    if (jn.type != JointType::kHinge && jn.type != JointType::kSlide) continue;
    for (int upper = 0; upper < 2; ++upper) {
      const S dist = tree_limit_distance(lim, d.qpos[jn.qpos_adr], upper);
      if (!(value(dist) < value(lim.margin))) continue;
      if (!tree_add_limit_row(cd, j, jn.dof_adr, upper ? -1.0 : 1.0, dist, lim.margin)) return;
    }
  }
  if (!ten) return;
  for (int t = 0; t < kMaxTendons; ++t) {
    const TreeLimit<S>& lim = cm.tendon_limit[t];
    if (!lim.limited) continue;
    for (int upper = 0; upper < 2; ++upper) {
      const S dist = tree_limit_distance(lim, ten->ten_length[t], upper);
      if (!(value(dist) < value(lim.margin))) continue;
      if (!tree_add_tendon_limit_row(cd, m.nv, t, upper ? 1.0 : -1.0, ten->ten_J + t * m.nv, dist,
                                     lim.margin))
        return;
    }
  }
}

// The contact frame's rows of the relative motion at the contact (body of geom2 minus body of geom1): the
// normal row, for condim 3 the two tangent rows, and beyond them the relative rotation about the frame's
// axes (condim 4: about the normal, torsion; 6: also about the tangents, rolling). jac: rows x nv, computed
// over the bodies' span of dofs (tree_dof_path) and exact zeros outside it; when span is given, the path is
// given back in it and only the span's columns are written (the caller reads no others).
// On a tape (kTreeSparseRows) the dofs within the span that move neither body are left exact zeros too
// instead of taped products with zero; double and dual rows keep the plain loop, which the compiler
// vectorises.
template <class S>
inline constexpr bool kTreeSparseRows = is_reverse_v<S>;

template <class S>
void tree_contact_frame_rows(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                             const TreeContact<S>& c, int rows, S* jac, TreeDofPath* span = nullptr) {
  const int nv = m.nv, b1 = cm.geom[c.geom1].body, b2 = cm.geom[c.geom2].body;
  TreeDofPath own;
  TreeDofPath& path = span ? *span : own;
  tree_dof_path(m, b1, b2, path);
  const int lo = path.lo, hi = path.hi;
  S dif[3 * kMaxDofs], rot[3 * kMaxDofs];  // written over the span only
  tree_jac_dif(m, d, c.pos, b1, b2, dif, rows > 3 ? rot : nullptr, lo, hi);
  for (int r = 0; r < rows; ++r) {
    const S* from = r < 3 ? dif : rot;
    const Vec3<S>& axis = c.frame[r < 3 ? r : r - 3];
    S* row = jac + r * nv;
    if (!span)
      for (int i = 0; i < lo; ++i) row[i] = 0.0;
    for (int i = lo; i < hi; ++i)
      row[i] = !kTreeSparseRows<S> || path.moves[i]
                   ? dot(axis, Vec3<S>(from[i], from[nv + i], from[2 * nv + i]))
                   : S(0.0);
    if (!span)
      for (int i = hi; i < nv; ++i) row[i] = 0.0;
  }
}

// The condims a tree's contacts take: frictionless (1), sliding friction (3), and torsional (4) and
// rolling (6) friction, each as the pyramid's edge pairs.
inline bool tree_condim_supported(int dim) {
  return dim == 1 || dim == 3 || dim == 4 || dim == 6;
}

// The rows a contact takes: one frictionless, the pyramid's edge pairs, or the elliptic cone's frame rows.
template <class S>
int tree_contact_row_count(const TreeConstraintModel<S>& cm, int dim) {
  return dim == 1 ? 1 : cm.opt.elliptic ? dim : 2 * (dim - 1);
}

// mj_instantiateContact: condim 1 gives one row; condim 3, 4 and 6 either (pyramidal) the edge pairs
// n +- mu_k t_k, t_k a tangent's or (torsion, rolling) an axis's relative rotation row with its friction
// coefficient, or (elliptic) the frame's rows themselves, the normal's at the contact's distance and the
// others at 0. Other condims return false.
template <class S>
bool tree_instantiate_contacts(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                               TreeConstraintData<S>& cd) {
  const int nv = m.nv;
  S jac[6 * kMaxDofs], edge[kMaxDofs];
  TreeDofPath path;
  for (int i = 0; i < cd.ncon; ++i) {
    TreeContact<S>& c = cd.contact[i];
    if (c.exclude) continue;
    if (!tree_condim_supported(c.dim)) return false;
    if (nv == 0) continue;
    if (cd.nefc + tree_contact_row_count(cm, c.dim) > kMaxEfc) {
      cd.overflow = true;
      return true;
    }
    c.efc_address = cd.nefc;
    tree_contact_frame_rows(m, cm, d, c, c.dim, jac, &path);
    const int lo = path.lo, hi = path.hi;
    if (c.dim == 1) {
      tree_add_row(cd, jac + lo, c.dist, c.includemargin, EfcType::kContactFrictionless, i, lo, hi);
      continue;
    }
    if (cm.opt.elliptic) {
      for (int k = 0; k < c.dim; ++k)
        tree_add_row(cd, jac + k * nv + lo, k == 0 ? c.dist : S(0.0), k == 0 ? c.includemargin : S(0.0),
                     EfcType::kContactElliptic, i, lo, hi);
      continue;
    }
    for (int k = 1; k < c.dim; ++k)
      for (int sign = 1; sign >= -1; sign -= 2) {
        const S mu = c.friction[k - 1] * double(sign);
        for (int v = lo; v < hi; ++v)  // the rows are read over their span only
          edge[v] = !kTreeSparseRows<S> || path.moves[v] ? plus_product(jac[v], jac[k * nv + v], mu) : S(0.0);
        tree_add_row(cd, edge + lo, c.dist, c.includemargin, EfcType::kContactPyramidal, i, lo, hi);
      }
  }
  return true;
}

// mj_diagApprox: an approximation of the diagonal of J M^-1 J' from the inverse weights at qpos0.
// An equality row's: a connect's bodies' translational weights, a joint's dofs', a tendon's.
template <class S>
S tree_equality_diag_approx(const TreeModel<S>& m, const TreeConstraintModel<S>& cm,
                            const TreeEquality<S>& eq) {
  // A weld's rotation rows too: MuJoCo 2.2.2 resets its row counter on every equality row (it compares the
  // row's constraint type with the weld's equality type), so all six take the translational weights.
  if (eq.type == EqualityType::kConnect || eq.type == EqualityType::kWeld)
    return cm.body_invweight0[eq.obj1][0] + cm.body_invweight0[eq.obj2][0];
  const auto weight = [&](int id) {
    return eq.type == EqualityType::kJoint ? cm.dof_invweight0[m.joint[id].dof_adr]
                                           : cm.tendon_invweight0[id];
  };
  return eq.obj2 >= 0 ? S(weight(eq.obj1) + weight(eq.obj2)) : S(weight(eq.obj1));
}

template <class S>
void tree_diag_approx(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, TreeConstraintData<S>& cd) {
  for (int r = 0; r < cd.nefc; ++r) {
    const int id = cd.efc_id[r];
    if (cd.efc_type[r] == EfcType::kEquality) {
      cd.efc_diagApprox[r] = tree_equality_diag_approx(m, cm, cm.eq[id]);
      continue;
    }
    if (cd.efc_type[r] == EfcType::kLimitJoint) {
      cd.efc_diagApprox[r] = cm.dof_invweight0[m.joint[id].dof_adr];
      continue;
    }
    if (cd.efc_type[r] == EfcType::kFrictionDof) {
      cd.efc_diagApprox[r] = cm.dof_invweight0[id];
      continue;
    }
    if (cd.efc_type[r] == EfcType::kLimitTendon || cd.efc_type[r] == EfcType::kFrictionTendon) {
      cd.efc_diagApprox[r] = cm.tendon_invweight0[id];
      continue;
    }
    const TreeContact<S>& c = cd.contact[id];
    const int b1 = cm.geom[c.geom1].body, b2 = cm.geom[c.geom2].body;
    const S tran = cm.body_invweight0[b1][0] + cm.body_invweight0[b2][0];
    if (cd.efc_type[r] == EfcType::kContactFrictionless) {
      cd.efc_diagApprox[r] = tran;
      continue;
    }
    const S rot = cm.body_invweight0[b1][1] + cm.body_invweight0[b2][1];
    if (cd.efc_type[r] == EfcType::kContactElliptic) {  // the normal and tangents translate, the rest rotate
      cd.efc_diagApprox[r] = r - c.efc_address < 3 ? tran : rot;
      continue;
    }
    // Pyramidal: edge pair j of the sliding directions (j < 2) sees the translational weights, a torsional
    // or rolling one the rotational weights.
    const int j = (r - c.efc_address) / 2;
    cd.efc_diagApprox[r] = tran + c.friction[j] * c.friction[j] * (j < 2 ? tran : rot);
  }
}

// The row's solref, solimp (getsolparam): refsafe keeps the time constant at least two steps.
template <class S>
void tree_row_params(const TreeConstraintModel<S>& cm, const TreeConstraintData<S>& cd, int r, S solref[2],
                     S solimp[5]) {
  const int id = cd.efc_id[r];
  const S* ref = nullptr;
  const S* imp = nullptr;
  switch (cd.efc_type[r]) {
    case EfcType::kEquality:
      ref = cm.eq[id].solref, imp = cm.eq[id].solimp;
      break;
    case EfcType::kFrictionDof:
      ref = cm.dof_friction[id].solref, imp = cm.dof_friction[id].solimp;
      break;
    case EfcType::kFrictionTendon:
      ref = cm.tendon_friction[id].solref, imp = cm.tendon_friction[id].solimp;
      break;
    case EfcType::kLimitJoint:
      ref = cm.limit[id].solref, imp = cm.limit[id].solimp;
      break;
    case EfcType::kLimitTendon:
      ref = cm.tendon_limit[id].solref, imp = cm.tendon_limit[id].solimp;
      break;
    default:  // a contact's
      ref = cd.contact[id].solref, imp = cd.contact[id].solimp;
      break;
  }
  for (int k = 0; k < 2; ++k) solref[k] = ref[k];
  for (int k = 0; k < 5; ++k) solimp[k] = imp[k];
}

// The law of row r: its contact's (MuJoCo's, or Contacts From Distance's: tree_cfd_laws), MuJoCo's for a
// limit.
template <class S>
RowLaw tree_row_law(const TreeConstraintData<S>& cd, int r) {
  return tree_contact_row(cd.efc_type[r]) ? cd.contact[cd.efc_id[r]].law : RowLaw::plain;
}

// The row whose distance sets row r's impedance: an elliptic contact's normal row for all its rows (the
// others sit at distance 0), else the row itself.
template <class S>
int tree_impedance_row(const TreeConstraintData<S>& cd, int r) {
  return cd.efc_type[r] == EfcType::kContactElliptic ? cd.contact[cd.efc_id[r]].efc_address : r;
}

// The distance row r's impedance is taken at (getposdim): a connect's |pos| over its 3 rows, a weld's over
// its 6 with the rotation rows' times torquescale (r the first row), else the row's (or its impedance row's)
// pos - margin.
template <class S>
S tree_impedance_distance(const TreeConstraintModel<S>& cm, const TreeConstraintData<S>& cd, int r) {
  const bool equality = cd.efc_type[r] == EfcType::kEquality;
  const EqualityType t = equality ? cm.eq[cd.efc_id[r]].type : EqualityType::kJoint;
  if (t == EqualityType::kConnect || t == EqualityType::kWeld) {
    S n2 = S(0.0);
    for (int k = 0; k < 3; ++k) n2 += cd.efc_pos[r + k] * cd.efc_pos[r + k];
    if (t == EqualityType::kWeld) {
      const S& ts = cm.eq[cd.efc_id[r]].torquescale;
      for (int k = 3; k < 6; ++k) n2 += ts * ts * cd.efc_pos[r + k] * cd.efc_pos[r + k];
    }
    return value(n2) > 0.0 ? S(sqrt(n2)) : S(0.0);  // sqrt's slope at 0 is infinite; the impedance's is 0
  }
  const int at = tree_impedance_row(cd, r);
  return cd.efc_pos[at] - cd.efc_margin[at];
}

// MuJoCo's friction rows: R_1 = R_0 / impratio and the regularised cone's mu = friction[0] sqrt(R_1 / R_0);
// the pyramid's edges then share R = 2 mu^2 R_0, an elliptic cone's later rows get R_j with
// R_j friction[j-1]^2 = R_1 friction[0]^2. r: the contact's first row. Returns the contact's row count.
template <class S>
int tree_friction_regularisers(const TreeConstraintModel<S>& cm, TreeConstraintData<S>& cd, int r) {
  using tree_constraint_detail::kMinVal;
  TreeContact<S>& c = cd.contact[cd.efc_id[r]];
  const S R1 = cd.efc_R[r] / (value(cm.impratio) > kMinVal ? cm.impratio : S(kMinVal));
  c.mu = c.friction[0] * sqrt(R1 / cd.efc_R[r]);
  if (cd.efc_type[r] == EfcType::kContactElliptic) {
    cd.efc_R[r + 1] = R1;
    for (int j = 1; j < c.dim - 1; ++j)
      cd.efc_R[r + j + 1] = R1 * c.friction[0] * c.friction[0] / (c.friction[j] * c.friction[j]);
    return c.dim;
  }
  const S Rpy = c.mu * c.mu * cd.efc_R[r] * 2.0;
  const int rows = 2 * (c.dim - 1);
  for (int k = 0; k < rows; ++k) cd.efc_R[r + k] = Rpy;
  return rows;
}

// mj_makeImpedance: impedance at pos - margin (a CFD row's from its law), R = (1 - imp) / imp diagApprox, K
// and B from solref (K = 0 on friction-loss rows and an elliptic cone's friction rows); then the friction
// rows' regularisers (tree_friction_regularisers), and D = 1 / R. A contact's rows share their parameters and
// the distance their impedance is taken at (the pyramid's edges all sit at the contact's distance, an
// elliptic cone's rows at its normal's): one impedance and spring per contact.
template <class S>
void tree_make_impedance(const TreeConstraintModel<S>& cm, TreeConstraintData<S>& cd) {
  using tree_constraint_detail::kMinVal;
  S imp{};
  MujocoSpring<S> sp{};
  for (int r = 0; r < cd.nefc; ++r) {
    // A contact's or a connect's rows share one impedance and spring.
    const bool same_contact = r > 0 && !tree_limit_row(cd.efc_type[r]) &&
                              cd.efc_type[r] == cd.efc_type[r - 1] && cd.efc_id[r] == cd.efc_id[r - 1];
    const int at = tree_impedance_row(cd, r);
    if (!same_contact) {
      S solref[2], solimp[5];
      tree_row_params(cm, cd, r, solref, solimp);
      imp = law_impedance(tree_row_law(cd, r), solimp, cm.cfd, tree_impedance_distance(cm, cd, r));
      sp = mujoco_spring(solref, solimp, cm.opt.refsafe, cm.opt.timestep);
    }
    S R = (1.0 - imp) * cd.efc_diagApprox[r] / imp;
    if (!(value(R) > kMinVal)) R = S(kMinVal);
    const bool spring = at == r && !tree_friction_row(cd.efc_type[r]);
    cd.efc_R[r] = R, cd.efc_imp[r] = imp, cd.efc_K[r] = spring ? sp.K : S(0.0), cd.efc_B[r] = sp.B;
  }
  for (int r = 0; r < cd.nefc; ++r) {
    const EfcType t = cd.efc_type[r];
    if (t == EfcType::kContactPyramidal || t == EfcType::kContactElliptic)
      r += tree_friction_regularisers(cm, cd, r) - 1;
  }
  for (int r = 0; r < cd.nefc; ++r) {
    cd.efc_D[r] = 1.0 / cd.efc_R[r];
    cd.efc_diagApprox[r] = cd.efc_R[r] * cd.efc_imp[r] / (1.0 - cd.efc_imp[r]);
  }
}

// mj_makeConstraint: the rows at the current positions (kinematics, com frame and collision done; ten: the
// tendon stage's results when the model has tendon equalities). Returns false if a contact has a condim
// other than 1, 3, 4 or 6.
template <class S>
bool tree_make_constraint(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                          TreeConstraintData<S>& cd, const TreeTendonData<S>* ten = nullptr) {
  cd.nefc = 0;
  tree_instantiate_equality(m, cm, d, ten, cd);
  tree_instantiate_friction(m, cm, ten, cd);
  tree_instantiate_limits(m, cm, d, cd, ten);
  if (!tree_instantiate_contacts(m, cm, d, cd)) return false;
  tree_diag_approx(m, cm, cd);
  tree_make_impedance(cm, cd);
  return true;
}

// mj_referenceConstraint: efc_vel = J qvel and aref = -B vel - K imp (pos - margin); a CFD row's position
// term is its law's (-softplus(-(pos - margin))). J qvel sums over the row's span: the zeros outside it add
// exact zeros to a sum that starts at +0, so the value is the full row's.
template <class S>
void tree_reference_constraint(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                               TreeConstraintData<S>& cd) {
  (void)m;
  for (int r = 0; r < cd.nefc; ++r) {
    const int lo = cd.efc_lo[r];
    const S vel = dot_strided(cd.efc_J + r * kMaxDofs + lo, 1, d.qvel + lo, 1, cd.efc_hi[r] - lo);
    const S pos = law_position(tree_row_law(cd, r), cm.cfd, S(cd.efc_pos[r] - cd.efc_margin[r]));
    cd.efc_vel[r] = vel;
    cd.efc_aref[r] = -cd.efc_B[r] * vel - cd.efc_K[r] * cd.efc_imp[r] * pos;
  }
}

}  // namespace sg
