#pragma once
// The loss: a weighted sum of terms on the final state, each f(x - target) for one coordinate x of one
// particle's position or velocity, with f the identity, |.| or (.)^2.
#include "engine/core/scalar.hpp"

namespace sg {

inline constexpr int kMaxLossTerms = 8;

enum class LossQuantity : unsigned char { position, velocity };
enum class LossKind : unsigned char { value, abs, square };

template <class S>
struct LossTerm {
  LossQuantity quantity = LossQuantity::position;
  int body = 0;
  int axis = 2;
  LossKind kind = LossKind::value;
  S target = 0.0;
  double weight = 1.0;
};

template <class S>
struct LossSpec {
  int count = 1;
  LossTerm<S> terms[kMaxLossTerms];
};

// y = [q (3n), v (3n)] of n bodies with 3 coordinates each.
template <class S>
SG_HD S evaluate_loss(const LossSpec<S>& loss, const S* y, int nq) {
  S total = 0.0;
  for (int i = 0; i < loss.count; ++i) {
    const LossTerm<S>& t = loss.terms[i];
    const int idx = 3 * t.body + t.axis + (t.quantity == LossQuantity::velocity ? nq : 0);
    const S x = y[idx] - t.target;
    S f = x;
    if (t.kind == LossKind::abs) f = abs(x);
    if (t.kind == LossKind::square) f = x * x;
    total += t.weight * f;
  }
  return total;
}

}  // namespace sg
