#pragma once
// Newton's active-set guesses, kept per caller slot between solves: the free bodies' contact solver
// (newton_solver.hpp) and the tree's (engine/articulated/constraint_newton.hpp) use the same.
#include <cstdint>

#include "engine/core/platform.hpp"

namespace sg {

// The active set a solve ended with, per caller slot: the next solve's first Newton step uses it as a
// guess. Only the guess is reused (the iteration still starts from the unconstrained accelerations), so the
// converged result and its derivatives are those of a cold start; a good guess saves one Hessian and
// factorisation. Slots: 0 the simulated model's rules, 1 Contacts From Distance's, 2 readouts and contact
// modes. Part of a checkpoint (RigidMemo, TreeMemo; packed into bits): the guess decides the rounding of the
// solution, and where the iteration cap stops the search, the iterate it stops at.
struct ActiveSetGuesses {
  static constexpr int kSlots = 3;
  static constexpr int kMaxRows = 256;
  bool rows[kSlots][kMaxRows];
  int count[kSlots] = {};
};

struct PackedGuesses {
  std::uint64_t bits[ActiveSetGuesses::kSlots][ActiveSetGuesses::kMaxRows / 64];
  int count[ActiveSetGuesses::kSlots];
};

SG_HD inline PackedGuesses pack(const ActiveSetGuesses& g) {
  PackedGuesses p{};
  for (int s = 0; s < ActiveSetGuesses::kSlots; ++s) {
    p.count[s] = g.count[s];
    for (int r = 0; r < g.count[s]; ++r)
      if (g.rows[s][r]) p.bits[s][r / 64] |= std::uint64_t{1} << (r % 64);
  }
  return p;
}

SG_HD inline void unpack(const PackedGuesses& p, ActiveSetGuesses& g) {
  for (int s = 0; s < ActiveSetGuesses::kSlots; ++s) {
    g.count[s] = p.count[s];
    for (int r = 0; r < p.count[s]; ++r) g.rows[s][r] = (p.bits[s][r / 64] >> (r % 64)) & 1u;
  }
}

}  // namespace sg
