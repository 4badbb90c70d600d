#pragma once
// Inertia stage (MuJoCo 2.2.2 mj_crb): the composite rigid body algorithm. Each body's composite inertia is
// its subtree's inertia; M(i, j) for dof j on the path from dof i to the world is the work cdof_j does
// against the momentum crb cdof_i. qM is dense nv x nv (MuJoCo stores only the tree's sparsity pattern).
#include "engine/articulated/spatial.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

// Composite inertias, leaves to root; the world body collects nothing (its bodies are separate trees).
template <class S>
void tree_composite_inertia(const TreeModel<S>& m, TreeData<S>& d) {
  for (int i = 0; i < m.nbody; ++i) d.crb[i] = d.cinert[i];
  for (int i = m.nbody - 1; i > 0; --i)
    if (m.body[i].parent > 0) d.crb[m.body[i].parent] = d.crb[m.body[i].parent] + d.crb[i];
}

// The span of each row of qM: the dofs of the kinematic tree (the world child's subtree) that the row's dof
// moves; dofs of different trees share no entry. The products with qM loop over these spans only: a free-body
// scene's qM is block diagonal, and its dense rows would be mostly zeros.
// Returns whether the spans are those of the previous call with the same nv (qM's zeros outside them are
// then in place).
template <class S>
bool tree_mass_spans(const TreeModel<S>& m, TreeData<S>& d) {
  int lo[kMaxTreeBodies], hi[kMaxTreeBodies];  // by root body
  for (int b = 0; b < m.nbody; ++b) lo[b] = m.nv, hi[b] = 0;
  for (int i = 0; i < m.nv; ++i) {
    const int r = m.body[m.dof_body[i]].root;
    lo[r] = i < lo[r] ? i : lo[r];
    hi[r] = i + 1 > hi[r] ? i + 1 : hi[r];
  }
  bool same = d.qM_spans_nv == m.nv;
  for (int i = 0; i < m.nv; ++i) {
    const int r = m.body[m.dof_body[i]].root;
    same = same && d.qM_lo[i] == lo[r] && d.qM_hi[i] == hi[r];
    d.qM_lo[i] = lo[r], d.qM_hi[i] = hi[r];
  }
  d.qM_spans_nv = m.nv;
  return same;
}

// mj_crb: qM with the dofs' armature on its diagonal. Entries between dofs on different branches are zero:
// those of different trees stay zero from the first call (only the spans are written), unless the spans
// changed.
template <class S>
void tree_crb(const TreeModel<S>& m, TreeData<S>& d) {
  const int nv = m.nv;
  if (tree_mass_spans(m, d)) {
    for (int i = 0; i < nv; ++i)
      for (int k = d.qM_lo[i]; k < d.qM_hi[i]; ++k) d.qM[i * nv + k] = 0.0;
  } else {
    for (int k = 0; k < nv * nv; ++k) d.qM[k] = 0.0;
  }
  tree_composite_inertia(m, d);
  for (int i = nv - 1; i >= 0; --i) {
    const Spatial<S> momentum = d.crb[m.dof_body[i]] * d.cdof[i];
    d.qM[i * nv + i] = m.armature[i] + dot(d.cdof[i], momentum);
    for (int j = m.dof_parent[i]; j >= 0; j = m.dof_parent[j]) {
      const S mij = dot(d.cdof[j], momentum);
      d.qM[i * nv + j] = mij;
      d.qM[j * nv + i] = mij;
    }
  }
}

}  // namespace sg
