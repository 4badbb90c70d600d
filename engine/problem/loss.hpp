#pragma once
// The loss: a weighted sum of terms on the final state, each f(x - target) for one coordinate x of one
// particle's position or velocity (or, in a joint tree, of a joint's qpos or qvel), with f the identity,
// |.| or (.)^2.
#include "engine/core/scalar.hpp"

namespace sg {

inline constexpr int kMaxLossTerms = 8;

// The system's coordinate(y, quantity, index, component) reads them by this number (qpos, qvel, site: trees
// only; index is then the joint, component its coordinate, or the site, component the axis).
enum class LossQuantity : unsigned char { position = 0, velocity = 1, qpos = 2, qvel = 3, site = 4 };
enum class LossKind : unsigned char { value, abs, square };

template <class S>
struct LossTerm {
  LossQuantity quantity = LossQuantity::position;
  int body = 0;  // qpos, qvel: the joint; site: the site
  int axis = 2;  // qpos, qvel: the joint's coordinate
  LossKind kind = LossKind::value;
  S target = 0.0;
  double weight = 1.0;
};

template <class S>
struct LossSpec {
  int count = 1;
  LossTerm<S> terms[kMaxLossTerms];
};

// The system decodes its own state: sys.coordinate(y, quantity (0 position, 1 velocity), body, axis).
template <class S, class System>
SG_HD S evaluate_loss(const LossSpec<S>& loss, const System& sys, const S* y) {
  S total = 0.0;
  for (int i = 0; i < loss.count; ++i) {
    const LossTerm<S>& t = loss.terms[i];
    const S x = sys.coordinate(y, static_cast<int>(t.quantity), t.body, t.axis) - t.target;
    S f = x;
    if (t.kind == LossKind::abs) f = abs(x);
    if (t.kind == LossKind::square) f = x * x;
    total += t.weight * f;
  }
  return total;
}

}  // namespace sg
