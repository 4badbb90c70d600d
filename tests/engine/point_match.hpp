#pragma once
// One sweep point computed two ways (device path vs CPU, GPU vs CPU): the numbers agree under `same`, and the
// status and step counts are identical.
#include <doctest/doctest.h>

#include "engine/gradient/point_eval.hpp"

namespace sg::test {

template <class Same>
void check_point_matches(const PointResult& got, const PointResult& want, Same same) {
  CHECK(same(got.loss, want.loss));
  CHECK(same(got.grad, want.grad));
  CHECK(same(got.grad_fd, want.grad_fd));
  CHECK(same(got.grad_ref, want.grad_ref));
  CHECK(got.status == want.status);
  CHECK(got.steps == want.steps);
  CHECK(got.rejected == want.rejected);
  CHECK(got.events == want.events);
}

}  // namespace sg::test
