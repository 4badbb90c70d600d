#pragma once
// The grazing mode of a joint tree's contact: Filippov's sliding solution on its surface r = 0, as the free
// bodies' (engine/rigid/grazing.hpp, docs/engine.md "Grazing"), over the tree's dofs. A body sliding on
// MuJoCo's pyramidal soft contact is pushed out at r = 0- and falls back at r = 0+; in the grazing mode the
// contact's force is scaled by a weight s in [0, 1] so that r'' = -2 w r' - w^2 r: the convex combination
// qacc = qacc_without + s (qacc_with - qacc_without) of the fields with and without the contact (each with
// the other rows' forces solved for it). r'' = J_n qacc + J_n' qvel: unlike a sphere's distance to a plane, a
// box corner's or a capsule end's has a curvature term from the bodies' rotation, which the system measures
// (TreeSystem::grazing_curvature) and the combination includes, so that r stays at 0 rather than settling at
// -J_n' qvel / w^2. The mode ends when the weight without the stabilisation terms leaves [0, 1].
#include "engine/articulated/tree_model.hpp"
#include "engine/contact/grazing_weights.hpp"

namespace sg {

template <class S>
struct TreeGrazingContact {
  S normal[kMaxDofs];  // J_n: the normal relative velocity's Jacobian over the dofs
  S rate;              // r' = J_n qvel
  S dist;              // r: the distance less the contact's margin
  double omega;        // the stabilisation rate w (1 / the contact's time constant)
  double curvature;    // J_n' qvel (values: a constant of the gradient)
  int entry;           // its mode entry
  int contact;         // its index in the constraint data's contacts
};

// acc: qacc with every grazing contact at full force on entry, the grazing mode's on return. delta[k]: what
// contact k's force adds (its field minus the field without it). physical[k]: the weight without the
// stabilisation terms (r'' = 0). False if the weights are undetermined (a grazing contact without force);
// acc is then unchanged.
template <class S>
bool apply_tree_grazing(const TreeGrazingContact<S>* g, int m, const S (*delta)[kMaxDofs], int nv, S* acc,
                        double* physical) {
  S A[kMaxGrazing][kMaxGrazing], u[kMaxGrazing];
  double A0[kMaxGrazing][kMaxGrazing], u0[kMaxGrazing];
  for (int k = 0; k < m; ++k) {
    for (int j = 0; j < m; ++j) {
      S s = 0.0;
      for (int i = 0; i < nv; ++i) s += g[k].normal[i] * delta[j][i];
      A[k][j] = s;
      A0[k][j] = value(s);
    }
    S na = g[k].curvature;
    for (int i = 0; i < nv; ++i) na += g[k].normal[i] * acc[i];
    const S target = -2.0 * g[k].omega * g[k].rate - g[k].omega * g[k].omega * g[k].dist;
    u[k] = na - target;
    u0[k] = value(na);
  }
  if (!solve_grazing_weights(A, u, A0, u0, m)) return false;
  for (int k = 0; k < m; ++k) {
    physical[k] = 1.0 - u0[k];
    for (int i = 0; i < nv; ++i) acc[i] -= delta[k][i] * u[k];
  }
  return true;
}

}  // namespace sg
