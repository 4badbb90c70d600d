#include "engine/sweep/point_order.hpp"

namespace sg {

std::vector<long> coarse_to_fine(long n) {
  std::vector<long> order;
  if (n <= 0) return order;
  order.reserve(static_cast<std::size_t>(n));
  std::vector<bool> taken(static_cast<std::size_t>(n), false);
  auto take = [&](long i) {
    if (taken[static_cast<std::size_t>(i)]) return;
    taken[static_cast<std::size_t>(i)] = true;
    order.push_back(i);
  };
  take(0);
  take(n - 1);
  long stride = 1;
  while (2 * stride < n) stride *= 2;
  for (; stride >= 1; stride /= 2)
    for (long i = 0; i < n; i += stride) take(i);
  return order;
}

}  // namespace sg
