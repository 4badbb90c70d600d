// What a reverse-mode tape leaves out: computations whose derivatives nobody reads (engine/core/reverse.hpp's
// RevPause, through TapePause) give the values a recorded run gives and no tape nodes.
#include <doctest/doctest.h>

#include "engine/core/scalar.hpp"
#include "engine/integrate/controller.hpp"
#include "engine/rigid/soft_rows.hpp"

using namespace sg;

namespace {

// A box corner 1 mm into the plane, sliding and spinning, condim 3: every input a variable on the tape.
struct CornerContact {
  RigidModel<Rev> model;
  PairData<Rev> pair;
  BodyState<Rev> body[1];
  InverseMass<Rev> inverse[1];
  ContactRecord<Rev> rec;

  CornerContact() {
    RevTape::current().clear();
    auto var = [](double v) { return Rev::variable(v); };
    pair.params.friction = var(0.8);
    pair.params.solref[0] = var(0.02), pair.params.solref[1] = var(1.0);
    const double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2.0};
    for (int k = 0; k < 5; ++k) pair.params.solimp[k] = var(solimp[k]);
    pair.params.condim = 3;
    pair.params.margin = 0.0;
    pair.spring = mujoco_spring(pair.params.solref, pair.params.solimp, true, 0.002);
    body[0].pos = {var(0.1), var(0.2), var(0.049)};
    body[0].rot = Mat3<Rev>::identity();
    body[0].vel = {var(0.3), var(-0.1), var(-0.5)};
    body[0].angvel = {var(1.0), var(2.0), var(-0.5)};
    inverse[0].inv_mass = var(10.0);
    inverse[0].inv_inertia = {var(2400.0), var(2400.0), var(2400.0)};
    rec.body_a = -1;
    rec.body_b = 0;
    rec.contact.dist = var(-0.001);
    rec.contact.pos = {var(0.15), var(0.25), var(-0.0005)};
    rec.contact.frame[0] = {0.0, 0.0, 1.0};
    rec.contact.frame[1] = {1.0, 0.0, 0.0};
    rec.contact.frame[2] = {0.0, 1.0, 0.0};
    rec.pair = &pair;
  }
};

bool rows_equal(const ConstraintRow<Rev>& a, const ConstraintRow<Rev>& b) {
  const Rev x[] = {a.ja.lin.x, a.ja.lin.y, a.ja.lin.z, a.ja.ang.x, a.ja.ang.y, a.ja.ang.z, a.jb.lin.x,
                   a.jb.lin.y, a.jb.lin.z, a.jb.ang.x, a.jb.ang.y, a.jb.ang.z, a.aref,     a.R};
  const Rev y[] = {b.ja.lin.x, b.ja.lin.y, b.ja.lin.z, b.ja.ang.x, b.ja.ang.y, b.ja.ang.z, b.jb.lin.x,
                   b.jb.lin.y, b.jb.lin.z, b.jb.ang.x, b.jb.ang.y, b.jb.ang.z, b.aref,     b.R};
  for (int k = 0; k < 14; ++k)
    if (x[k].v != y[k].v) return false;
  return a.body_a == b.body_a && a.body_b == b.body_b;
}

bool row_on_tape(const ConstraintRow<Rev>& r) {
  return r.jb.lin.x.i > 0 && r.jb.ang.x.i > 0 && r.aref.i > 0;
}

}  // namespace

TEST_CASE("a frozen mode's inactive pyramid rows have their values and record nothing") {
  CornerContact c;
  RevTape& tape = RevTape::current();
  ConstraintRow<Rev> all[4], none[4], some[4];
  const int before_all = tape.size();
  REQUIRE(soft_contact_rows(c.model, c.body, c.inverse, c.rec, RowLaw::plain, all) == 4);
  const int nodes_all = tape.size() - before_all;

  const int before_none = tape.size();
  REQUIRE(soft_contact_rows(c.model, c.body, c.inverse, c.rec, RowLaw::plain, none, 0u) == 4);
  CHECK(tape.size() == before_none);  // no row acts: nothing recorded

  // Only the edge n - mu t2 acts (bit 3): its row is recorded, the others are values.
  const int before_some = tape.size();
  REQUIRE(soft_contact_rows(c.model, c.body, c.inverse, c.rec, RowLaw::plain, some, 1u << 3) == 4);
  const int nodes_some = tape.size() - before_some;
  CHECK(nodes_some > 0);
  CHECK(nodes_some < nodes_all);
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    CHECK(rows_equal(all[k], none[k]));
    CHECK(rows_equal(all[k], some[k]));
    CHECK(row_on_tape(all[k]));
    CHECK(!row_on_tape(none[k]));
    CHECK(row_on_tape(some[k]) == (k == 3));
  }

  // The recorded row's derivatives are those of the fully recorded one (one reverse sweep from each aref).
  const std::vector<double> a = reverse_sweep(tape, all[3].aref.i), s = reverse_sweep(tape, some[3].aref.i);
  const int leaves = before_all;  // the variables were made before the first call
  for (int v = 1; v < leaves; ++v) {
    CAPTURE(v);
    CHECK(s[static_cast<std::size_t>(v)] == doctest::Approx(a[static_cast<std::size_t>(v)]).epsilon(1e-15));
  }
}

TEST_CASE("the error norm under frozen steps is a value, the same as computed on the tape") {
  RevTape& tape = RevTape::current();
  tape.clear();
  Rev y0[3], y1[3], err[3];
  for (int k = 0; k < 3; ++k) {
    y0[k] = Rev::variable(1.0 + k);
    y1[k] = Rev::variable(1.5 - 0.2 * k);
    err[k] = Rev::variable(1e-7 * (k + 1));
  }
  const int before = tape.size();
  const double frozen = step_error<double>(y0, y1, err, 3, 1e-6, 1e-8);
  CHECK(tape.size() == before);
  const Rev taped = scaled_error(y0, y1, err, 3, 1e-6, 1e-8);
  CHECK(tape.size() > before);
  CHECK(frozen == taped.v);

  const Rev acc = Rev::variable(0.25), k = Rev::variable(-3.0);
  const int mark = tape.size();
  const Rev valued = add_scaled_value(acc, 0.7, k, 0.01);
  CHECK(tape.size() == mark);
  CHECK(valued.i == 0);
  CHECK(valued.v == add_scaled(acc, 0.7, k, 0.01).v);
}
