#pragma once
// The constraint stage's intermediates, named after mjData's (geom_xpos, contact, efc_*): geom poses,
// contacts, and the constraint rows with their Jacobian over the nv dofs (dense, row-major, leading
// dimension kMaxDofs; each row's span of dofs where it can be nonzero), reference accelerations, regularisers
// and forces.
#include "engine/articulated/constraint_model.hpp"
#include "engine/contact/cfd.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr int kMaxTreeContacts = 96;
inline constexpr int kMaxEfc = 256;

// mjtConstraint's values for the kinds this stage builds.
enum class EfcType : int {
  kEquality = 0,
  kFrictionDof = 1,
  kFrictionTendon = 2,
  kLimitJoint = 3,
  kLimitTendon = 4,
  kContactFrictionless = 5,
  kContactPyramidal = 6,
  kContactElliptic = 7
};

// mjContact: frame[0] is the normal from geom1 to geom2; dist < 0 is penetration.
template <class S>
struct TreeContact {
  int geom1 = 0, geom2 = 0;
  int feature = 0;  // the collider's name for the point within the pair (a box corner, a capsule end)
  int dim = 3;
  S dist{};
  Vec3<S> pos{};
  Vec3<S> frame[3]{};
  S friction[5] = {};
  S solref[2] = {};
  S solimp[5] = {};
  S includemargin{};  // margin - gap: rows see pos - includemargin
  S mu{};             // the regularised cone's friction (friction[0] sqrt(1 / impratio))
  bool exclude = false;
  RowLaw law = RowLaw::plain;  // MuJoCo's rows, or Contacts From Distance's (tree_cfd_laws)
  int efc_address = -1;
};

// Whether a row is a joint's or a tendon's limit.
inline bool tree_limit_row(EfcType t) {
  return t == EfcType::kLimitJoint || t == EfcType::kLimitTendon;
}

// Whether a row is a dof's or tendon's friction loss (efc_id the dof or the tendon).
inline bool tree_friction_row(EfcType t) {
  return t == EfcType::kFrictionDof || t == EfcType::kFrictionTendon;
}

// Whether a row belongs to a contact (efc_id a contact index).
inline bool tree_contact_row(EfcType t) {
  return t == EfcType::kContactFrictionless || t == EfcType::kContactPyramidal ||
         t == EfcType::kContactElliptic;
}

template <class S>
struct TreeConstraintData {
  Vec3<S> geom_xpos[kMaxTreeGeoms];
  Quat<S> geom_xquat[kMaxTreeGeoms];
  Mat3<S> geom_xmat[kMaxTreeGeoms];

  int ncon = 0;
  TreeContact<S> contact[kMaxTreeContacts];
  bool overflow = false;  // more contacts or rows than the capacities: the rest were dropped

  int nefc = 0;
  int ne = 0;  // the equality rows, rows 0 to ne - 1 (MuJoCo's order: equality, friction, limits, contacts)
  EfcType efc_type[kMaxEfc] = {};
  int efc_id[kMaxEfc] = {};  // equality, joint, tendon or contact index
  S efc_J[kMaxEfc * kMaxDofs] = {};
  // Row r's J is exact zeros outside dofs [lo, hi): only the span is stored (entries outside it are stale),
  // and every reader loops over it.
  int efc_lo[kMaxEfc] = {}, efc_hi[kMaxEfc] = {};
  S efc_pos[kMaxEfc] = {}, efc_margin[kMaxEfc] = {};
  S efc_diagApprox[kMaxEfc] = {}, efc_R[kMaxEfc] = {}, efc_D[kMaxEfc] = {};
  S efc_K[kMaxEfc] = {}, efc_B[kMaxEfc] = {}, efc_imp[kMaxEfc] = {};
  S efc_vel[kMaxEfc] = {}, efc_aref[kMaxEfc] = {}, efc_force[kMaxEfc] = {};
  S efc_frictionloss[kMaxEfc] = {};  // a friction row's largest force (0 on other rows)
  bool efc_active[kMaxEfc] = {};

  S qacc_smooth[kMaxDofs] = {};
  S qfrc_constraint[kMaxDofs] = {};
  int solver_iterations = 0;
  bool solver_settled = true;  // false: the search stopped at the iteration cap (its last iterate stands)
};

// mj_addConstraint: one row, exact zeros outside dofs [lo, hi); span holds its entries over [lo, hi) (the
// row's only stored part). False (and the overflow flag) when the rows are full.
template <class S>
bool tree_add_row(TreeConstraintData<S>& cd, const S* span, const S& pos, const S& margin, EfcType type,
                  int id, int lo, int hi) {
  if (cd.nefc >= kMaxEfc) {
    cd.overflow = true;
    return false;
  }
  const int r = cd.nefc++;
  for (int i = lo; i < hi; ++i) cd.efc_J[r * kMaxDofs + i] = span[i - lo];
  cd.efc_lo[r] = lo, cd.efc_hi[r] = hi;
  cd.efc_pos[r] = pos;
  cd.efc_margin[r] = margin;
  cd.efc_frictionloss[r] = 0.0;
  cd.efc_type[r] = type;
  cd.efc_id[r] = id;
  return true;
}

// A row of `scale` times a tendon's Jacobian (dense over nv, ten_J's row) over the span of its nonzeros.
template <class S>
bool tree_add_tendon_row(TreeConstraintData<S>& cd, int nv, int tendon, double scale, const S* ten_J,
                         const S& dist, const S& margin, EfcType type) {
  int lo = nv, hi = 0;
  for (int i = 0; i < nv; ++i)
    if (!is_zero(ten_J[i])) lo = i < lo ? i : lo, hi = i + 1;
  if (lo >= hi) lo = hi = 0;
  S span[kMaxDofs];
  for (int i = lo; i < hi; ++i) span[i - lo] = scale * ten_J[i];
  return tree_add_row(cd, span, dist, margin, type, tendon, lo, hi);
}

}  // namespace sg
