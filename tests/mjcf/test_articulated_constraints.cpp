// engine/articulated/'s constraint stage against MuJoCo 2.2.2's mj_forward: geom frames, mj_jac, contacts
// (matched by geom pair), constraint rows (efc_J, aref, R), qfrc_constraint and qacc, on inline models
// (a pendulum on the floor, a cart-pole at its slide limit, an arm at a hinge limit touching another
// tree's box) and the DeepMind humanoid lying on the floor; then the Dual tangent of the constrained qacc
// against central differences, and the Rev gradient against the duals.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/articulated/forward_constrained.hpp"
#include "engine/articulated/inverse_weights.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/core/dual.hpp"
#include "engine/core/reverse.hpp"
#include "mjcf/tree_constraints_from_mjmodel.hpp"
#include "mjcf/tree_from_mjmodel.hpp"
#include "tests/mjcf/mujoco_models.hpp"

using namespace sg;
using sg::test::DataPtr;
using sg::test::kHumanoid;
using sg::test::load_xml_file;
using sg::test::load_xml_text;
using sg::test::make_reference_data;
using sg::test::ModelPtr;
using sg::test::NamedXml;

namespace {

// Geometry (poses, contacts, Jacobians, aref, R) is the same formulas in another order: rounding only.
constexpr double kGeomTol = 1e-9;
// qacc and the constraint forces: MuJoCo stops its Newton iterations at opt.tolerance (1e-8, on the
// cost's scaled improvement and gradient), softgrad's search at the exact minimiser of the final piece.
constexpr double kSolveTol = 1e-6;

// Box-box contacts are left out: MuJoCo 2.2.2's face branch stores half the depth in dist and keeps
// corners beyond the reference face (docs/mujoco-validation.md), which softgrad's collider does not.
// The filterparent model's child capsule is offset sideways from its parent's: where two segments
// intersect, the closest points coincide and MuJoCo's normal is the direction of their rounding residual.
const NamedXml kModels[] = {
    {"pendulum on the floor", R"(
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom type="plane" size="2 2 0.1" friction="0.8"/>
    <body pos="0 0 0.55">
      <joint type="hinge" axis="0.1 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 -0.5" size="0.06" solref="0.01 0.8"/>
    </body>
  </worldbody>
</mujoco>)"},
    {"cart-pole at its slide limit", R"(
<mujoco>
  <option gravity="0 0 -3"/>
  <worldbody>
    <geom type="plane" size="2 2 0.1" contype="0" conaffinity="0"/>
    <body pos="0 0 0.5">
      <joint type="slide" axis="1 0 0" limited="true" range="-0.3 0.3" margin="0.01" solreflimit="0.03 1.2"
             solimplimit="0.8 0.97 0.002 0.4 3" damping="0.2"/>
      <geom type="box" size="0.2 0.1 0.05" mass="1" contype="2" conaffinity="2"/>
      <body pos="0 0 0.05">
        <joint type="hinge" axis="0 1 0" limited="true" range="-40 40"/>
        <geom type="capsule" fromto="0 0 0 0.1 0 0.6" size="0.02" mass="0.2" contype="2" conaffinity="2"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"arm at a limit touching a box", R"(
<mujoco>
  <option impratio="2"/>
  <worldbody>
    <geom type="plane" size="3 3 0.1" condim="1"/>
    <body pos="0 0 0.8">
      <joint type="hinge" axis="0 1 0" damping="0.3" armature="0.01"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04" contype="0" conaffinity="0"/>
      <body pos="0.4 0 0">
        <joint type="hinge" axis="0 1 0" limited="true" range="-30 60" margin="0.02"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" contype="0" conaffinity="0"/>
        <geom type="sphere" pos="0.35 0 0" size="0.07" friction="0.6" priority="1" solimp="0.85 0.95 0.01"/>
      </body>
    </body>
    <body pos="0.75 0 0.25">
      <joint type="slide" axis="0 0 1"/>
      <joint type="hinge" axis="1 0 0"/>
      <geom type="box" size="0.15 0.15 0.15" solref="0.015 1.1" margin="0.005" gap="0.001"/>
    </body>
  </worldbody>
</mujoco>)"},
    {"filterparent disabled, a body welded to the world", R"(
<mujoco>
  <option><flag filterparent="disable"/></option>
  <worldbody>
    <geom type="plane" size="2 2 0.1"/>
    <body pos="0.3 0 0.1">
      <geom type="box" size="0.1 0.1 0.1" contype="2" conaffinity="2"/>
    </body>
    <body pos="0 0 0.5">
      <joint type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"/>
      <geom type="sphere" pos="0.3 0 -0.2" size="0.08" contype="3" conaffinity="3"/>
      <body pos="0.3 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="-0.05 0.03 0 0.3 0.03 0" size="0.04"/>
        <body pos="0.3 0 0">
          <geom type="sphere" size="0.06"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"free sphere on a welded box, free box, cylinder (solmix) and ellipsoid (direct solref) on the floor",
     R"(
<mujoco>
  <worldbody>
    <geom type="plane" size="3 3 0.1" friction="0.9" contype="3" conaffinity="3"/>
    <body pos="0 0 0.1">
      <geom type="box" size="0.3 0.3 0.1"/>
    </body>
    <body pos="0.05 -0.02 0.25">
      <freejoint/>
      <geom type="sphere" size="0.06"/>
    </body>
    <body pos="-1 0 0.075" euler="3 2 20">
      <freejoint/>
      <geom type="box" size="0.1 0.08 0.08"/>
    </body>
    <body pos="1 0 0.3">
      <joint type="hinge" axis="0 1 0"/>
      <geom type="cylinder" fromto="0 0 0 0.3 0 -0.25" size="0.05" contype="2" conaffinity="2"
                solmix="3" solimp="0.8 0.9 0.02 0.3 1"/>
      <body pos="0.3 0 -0.25">
        <joint type="hinge" axis="1 0 0"/>
        <geom type="ellipsoid" size="0.06 0.04 0.08" pos="0 0 -0.02" contype="2" conaffinity="2"
              solref="-3000 -40"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
};

template <class S>
void copy_state(const mjModel* m, const mjData* d, TreeData<S>& t) {
  for (int i = 0; i < m->nq; ++i) t.qpos[i] = d->qpos[i];
  for (int i = 0; i < m->nv; ++i) t.qvel[i] = d->qvel[i], t.qfrc_applied[i] = d->qfrc_applied[i];
}

// |a - b| relative to max(1, the larger magnitude).
double rel(double a, double b) {
  return std::fabs(a - b) / std::fmax(1.0, std::fmax(std::fabs(a), std::fabs(b)));
}

double rel_vec(const double* a, const double* b, int n) {
  double diff = 0.0, scale = 1.0;
  for (int i = 0; i < n; ++i) {
    diff = std::fmax(diff, std::fabs(a[i] - b[i]));
    scale = std::fmax(scale, std::fabs(b[i]));
  }
  return diff / scale;
}

struct Worst {
  double geom = 0, jac = 0, contact = 0, efc_J = 0, aref = 0, R = 0, force = 0, qfrc = 0, qacc = 0;
  int states = 0, contacts = 0, rows = 0, parent_child = 0, world_welded = 0;
  // Entries of MuJoCo's rows outside our row's span of dofs (efc_lo, efc_hi: ours are defined over the span
  // only and every reader loops over it, so there must be none), and the spans' widths against nv, summed
  // over the rows.
  int outside_span = 0;
  long span_dofs = 0, row_dofs = 0;
  int pairs[mjNGEOMTYPES][mjNGEOMTYPES] = {};  // contacts by MuJoCo geom types
};

// Everything the constraint stage owns, for one model.
struct Ours {
  TreeModel<double> tree;
  TreeConstraintModel<double> cm;
  std::unique_ptr<TreeData<double>> d = std::make_unique<TreeData<double>>();
  std::unique_ptr<TreeConstraintData<double>> cd = std::make_unique<TreeConstraintData<double>>();
  std::unique_ptr<TreeNewtonWorkspace> ws = std::make_unique<TreeNewtonWorkspace>();
};

void map_model(const mjModel* m, Ours& o) {
  std::string why = mjcf::tree_from_mjmodel(m, o.tree);
  INFO(why);
  REQUIRE(why.empty());
  why = mjcf::tree_constraints_from_mjmodel(m, o.tree, o.cm);
  INFO(why);
  REQUIRE(why.empty());
}

// mj_jac at every body, at its com and at a point off it.
void compare_jacobians(const mjModel* m, const mjData* d, Ours& o, Worst& w) {
  const int nv = m->nv;
  std::vector<mjtNum> jp(3 * nv), jr(3 * nv);
  double ours_p[3 * kMaxDofs], ours_r[3 * kMaxDofs];
  for (int b = 1; b < m->nbody; ++b) {
    const mjtNum* x = d->xipos + 3 * b;
    const mjtNum point[3] = {x[0] + 0.1, x[1] - 0.2, x[2] + 0.05};
    mj_jac(m, d, jp.data(), jr.data(), point, b);
    tree_jac(o.tree, *o.d, Vec3<double>{point[0], point[1], point[2]}, b, ours_p, ours_r);
    w.jac =
        std::fmax(w.jac, std::fmax(rel_vec(ours_p, jp.data(), 3 * nv), rel_vec(ours_r, jr.data(), 3 * nv)));
  }
}

// Our contact with the same geom pair nearest to MuJoCo's contact c, or -1.
int match_contact(const mjContact& c, const TreeConstraintData<double>& cd) {
  int best = -1;
  double best_d = 1e300;
  for (int i = 0; i < cd.ncon; ++i) {
    const TreeContact<double>& o = cd.contact[i];
    if (o.geom1 != c.geom1 || o.geom2 != c.geom2) continue;
    const double dd = std::hypot(o.pos.x - c.pos[0], o.pos.y - c.pos[1], o.pos.z - c.pos[2]);
    if (dd < best_d) best_d = dd, best = i;
  }
  return best;
}

void compare_rows(const mjModel* m, const mjData* d, int mj_row, const TreeConstraintData<double>& cd,
                  int our_row, Worst& w) {
  const int nv = m->nv;
  const int lo = cd.efc_lo[our_row], hi = cd.efc_hi[our_row];
  double ours[kMaxDofs];  // our row over all dofs: its span's entries, zeros outside
  for (int i = 0; i < nv; ++i) ours[i] = i < lo || i >= hi ? 0.0 : cd.efc_J[our_row * kMaxDofs + i];
  w.efc_J = std::fmax(w.efc_J, rel_vec(ours, d->efc_J + mj_row * nv, nv));
  for (int i = 0; i < nv; ++i)
    if (i < lo || i >= hi) w.outside_span += d->efc_J[mj_row * nv + i] != 0.0;
  w.span_dofs += hi - lo, w.row_dofs += nv;
  w.aref = std::fmax(w.aref, rel(cd.efc_aref[our_row], d->efc_aref[mj_row]));
  w.R = std::fmax(w.R, std::fabs(cd.efc_R[our_row] - d->efc_R[mj_row]) / std::fabs(d->efc_R[mj_row]));
  w.force = std::fmax(w.force, rel(cd.efc_force[our_row], d->efc_force[mj_row]));
  ++w.rows;
}

// Contacts by geom pair (pos, dist, frame), and their rows.
void compare_contacts(const mjModel* m, const mjData* d, const TreeConstraintData<double>& cd, Worst& w) {
  REQUIRE(cd.ncon == d->ncon);
  for (int k = 0; k < d->ncon; ++k) {
    const mjContact& c = d->contact[k];
    const int i = match_contact(c, cd);
    CAPTURE(k);
    REQUIRE(i >= 0);
    const TreeContact<double>& o = cd.contact[i];
    double e = rel(o.dist, c.dist);
    for (int a = 0; a < 3; ++a) {
      e = std::fmax(e, rel(o.pos[a], c.pos[a]));
      for (int f = 0; f < 3; ++f) e = std::fmax(e, rel(o.frame[f][a], c.frame[3 * f + a]));
    }
    w.contact = std::fmax(w.contact, e);
    const int b1 = m->geom_bodyid[c.geom1], b2 = m->geom_bodyid[c.geom2];
    ++w.pairs[m->geom_type[c.geom1]][m->geom_type[c.geom2]];
    w.parent_child += b1 > 0 && b2 > 0 && (m->body_parentid[b1] == b2 || m->body_parentid[b2] == b1);
    w.world_welded += (b1 > 0 && m->body_weldid[b1] == 0) || (b2 > 0 && m->body_weldid[b2] == 0);
    ++w.contacts;
    REQUIRE(o.dim == c.dim);
    REQUIRE((o.efc_address < 0) == (c.efc_address < 0));
    if (c.efc_address < 0) continue;
    const int rows = c.dim == 1 ? 1 : 2 * (c.dim - 1);
    for (int r = 0; r < rows; ++r) compare_rows(m, d, c.efc_address + r, cd, o.efc_address + r, w);
  }
}

// One state: ours against mj_forward.
void compare_state(const mjModel* m, mjData* d, Ours& o, Worst& w) {
  mj_forward(m, d);
  copy_state(m, d, *o.d);
  REQUIRE(tree_forward_constrained(o.tree, o.cm, *o.d, *o.cd, *o.ws) == TreeForwardStatus::kOk);
  REQUIRE(!o.cd->overflow);
  const TreeConstraintData<double>& cd = *o.cd;
  for (int g = 0; g < m->ngeom; ++g)
    for (int a = 0; a < 3; ++a) {
      w.geom = std::fmax(w.geom, rel(cd.geom_xpos[g][a], d->geom_xpos[3 * g + a]));
      for (int b = 0; b < 3; ++b)
        w.geom = std::fmax(w.geom, rel(cd.geom_xmat[g].m[a][b], d->geom_xmat[9 * g + 3 * a + b]));
    }
  compare_jacobians(m, d, o, w);
  REQUIRE(cd.nefc == d->nefc);
  // Limit rows come first, in joint order, as in MuJoCo; contact rows follow their contacts.
  for (int r = 0; r < d->nefc && d->efc_type[r] == mjCNSTR_LIMIT_JOINT; ++r) {
    REQUIRE(cd.efc_type[r] == EfcType::kLimitJoint);
    REQUIRE(cd.efc_id[r] == d->efc_id[r]);
    compare_rows(m, d, r, cd, r, w);
  }
  compare_contacts(m, d, cd, w);
  w.qfrc = std::fmax(w.qfrc, rel_vec(cd.qfrc_constraint, d->qfrc_constraint, m->nv));
  w.qacc = std::fmax(w.qacc, rel_vec(o.d->qacc, d->qacc, m->nv));
  ++w.states;
}

void report_and_check(const std::string& name, const Worst& w) {
  MESSAGE(name << ": " << w.states << " states, " << w.contacts << " contacts, " << w.rows
               << " rows; worst errors relative to max(1, |x|): geom frames " << w.geom << ", mj_jac "
               << w.jac << ", contacts " << w.contact << ", efc_J " << w.efc_J << ", efc_aref " << w.aref
               << ", efc_R (relative) " << w.R << ", efc_force " << w.force << ", qfrc_constraint " << w.qfrc
               << ", qacc " << w.qacc << "; rows' spans " << w.span_dofs << " of " << w.row_dofs << " dofs, "
               << w.outside_span << " nonzeros outside them");
  std::string pairs;
  const char* names[mjNGEOMTYPES] = {"plane",     "hfield",   "sphere", "capsule",
                                     "ellipsoid", "cylinder", "box",    "mesh"};
  for (int a = 0; a < mjNGEOMTYPES; ++a)
    for (int b = 0; b < mjNGEOMTYPES; ++b)
      if (w.pairs[a][b] > 0)
        pairs += std::string(" ") + names[a] + "-" + names[b] + " " + std::to_string(w.pairs[a][b]);
  MESSAGE(name << ": contacts by pair:" << pairs);
  CHECK(w.geom <= kGeomTol);
  CHECK(w.jac <= kGeomTol);
  CHECK(w.contact <= kGeomTol);
  CHECK(w.efc_J <= kGeomTol);
  CHECK(w.aref <= kGeomTol);
  CHECK(w.R <= kGeomTol);
  CHECK(w.force <= kSolveTol);
  CHECK(w.qfrc <= kSolveTol);
  CHECK(w.qacc <= kSolveTol);
  CHECK(w.outside_span == 0);
}

// Random states near the model's rest pose: joints perturbed by up to `spread`, velocities up to vmax.
void perturb(const mjModel* m, mjData* d, std::mt19937& rng, double spread, double vmax) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int j = 0; j < m->njnt; ++j) {
    const int t = m->jnt_type[j];
    if (t == mjJNT_HINGE || t == mjJNT_SLIDE)
      d->qpos[m->jnt_qposadr[j]] = m->qpos0[m->jnt_qposadr[j]] + spread * u(rng);
  }
  for (int v = 0; v < m->nv; ++v) d->qvel[v] = vmax * u(rng);
}

}  // namespace

TEST_CASE("articulated constraints match MuJoCo's mj_forward on inline models") {
  for (const NamedXml& nx : kModels) {
    std::string error;
    ModelPtr m = load_xml_text(nx.xml, error);
    INFO(nx.name << ": " << error);
    REQUIRE(m);
    Ours o;
    map_model(m.get(), o);
    DataPtr d(mj_makeData(m.get()));
    std::mt19937 rng(35);
    Worst w;
    int with_rows = 0;
    for (int s = 0; s < 30; ++s) {
      perturb(m.get(), d.get(), rng, 0.8, 1.0);
      compare_state(m.get(), d.get(), o, w);
      with_rows += d->nefc > 0;
    }
    MESSAGE(std::string(nx.name) << ": " << with_rows << " of 30 states have constraint rows, "
                                 << w.parent_child << " contacts between a parent and its child, "
                                 << w.world_welded << " with a body welded to the world");
    CHECK(with_rows >= 5);
    if (std::string(nx.name).rfind("filterparent", 0) == 0) {
      CHECK(w.parent_child > 0);
      CHECK(w.world_welded > 0);
    }
    report_and_check(nx.name, w);
  }
}

// mj_setConst's body_invweight0 and dof_invweight0, recomputed from our TreeModel at qpos0: the same sums in
// another order, so round-off (relative to the largest weight of the model).
void check_inverse_weights(const char* name, const mjModel* m) {
  Ours o;
  map_model(m, o);
  TreeConstraintModel<double> ours;
  REQUIRE(tree_inverse_weights(o.tree, ours, *o.d));
  double worst = 0.0, scale = 1e-300;
  for (int b = 0; b < m->nbody; ++b)
    for (int k = 0; k < 2; ++k) {
      worst = std::fmax(worst, std::fabs(ours.body_invweight0[b][k] - m->body_invweight0[2 * b + k]));
      scale = std::fmax(scale, std::fabs(m->body_invweight0[2 * b + k]));
    }
  for (int v = 0; v < m->nv; ++v) {
    worst = std::fmax(worst, std::fabs(ours.dof_invweight0[v] - m->dof_invweight0[v]));
    scale = std::fmax(scale, std::fabs(m->dof_invweight0[v]));
  }
  MESSAGE(std::string(name) << ": inverse weights within " << worst / scale << " of MuJoCo's (relative)");
  CHECK(worst / scale < 1e-12);
}

TEST_CASE("articulated inverse weights (body_invweight0, dof_invweight0) match mj_setConst's") {
  for (const NamedXml& nx : kModels) {
    std::string error;
    ModelPtr m = load_xml_text(nx.xml, error);
    INFO(nx.name << ": " << error);
    REQUIRE(m);
    check_inverse_weights(nx.name, m.get());
  }
  if (!std::filesystem::exists(kHumanoid)) return;
  char err[1000] = "";
  ModelPtr hm(mj_loadXML(kHumanoid, nullptr, err, sizeof(err)));
  REQUIRE(hm);
  check_inverse_weights("humanoid", hm.get());
}

TEST_CASE("articulated constraints match MuJoCo's mj_forward on the humanoid lying on the floor") {
  if (!std::filesystem::exists(kHumanoid)) {
    std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (libmujoco-samples)\n", kHumanoid);
    return;
  }
  char err[1000] = "";
  ModelPtr m(mj_loadXML(kHumanoid, nullptr, err, sizeof(err)));
  INFO(err);
  REQUIRE(m);
  Ours o;
  map_model(m.get(), o);
  DataPtr d(mj_makeData(m.get()));
  // Dropped on its back from 0.3 m: MuJoCo's own steps bring it to the floor; states along the way and at
  // rest, each with joints and velocities perturbed.
  const double q[4] = {std::sqrt(0.5), 0.0, -std::sqrt(0.5), 0.0};
  d->qpos[2] = 0.3;
  for (int k = 0; k < 4; ++k) d->qpos[3 + k] = q[k];
  std::mt19937 rng(35);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Worst w;
  std::vector<mjtNum> qpos(m->nq), qvel(m->nv);
  for (int step = 1; step <= 600; ++step) {
    mj_step(m.get(), d.get());
    if (step % 100 != 0) continue;
    std::copy(d->qpos, d->qpos + m->nq, qpos.begin());
    std::copy(d->qvel, d->qvel + m->nv, qvel.begin());
    for (int v = 0; v < m->nv; ++v) d->qvel[v] += 0.3 * u(rng);
    for (int j = 1; j < m->njnt; ++j) d->qpos[m->jnt_qposadr[j]] += 0.2 * u(rng);
    compare_state(m.get(), d.get(), o, w);
    std::copy(qpos.begin(), qpos.end(), d->qpos);
    std::copy(qvel.begin(), qvel.end(), d->qvel);
  }
  // At rest, limbs bent by up to 1.5 rad: limbs against each other and joints past their limits.
  std::copy(d->qpos, d->qpos + m->nq, qpos.begin());
  for (int s = 0; s < 20; ++s) {
    for (int j = 1; j < m->njnt; ++j) d->qpos[m->jnt_qposadr[j]] = qpos[m->jnt_qposadr[j]] + 1.5 * u(rng);
    for (int v = 0; v < m->nv; ++v) d->qvel[v] = 0.5 * u(rng);
    compare_state(m.get(), d.get(), o, w);
  }
  CHECK(w.contacts >= 20);
  report_and_check("humanoid", w);
}

namespace {

using D2 = Dual<2>;

// qacc (values) at the state of d with qpos[k] moved by dq and the solref time constant of geom g by dref.
void qacc_double(const Ours& base, const mjModel* m, const mjData* d, int k, double dq, int g, double dref,
                 double* qacc, bool* active, int& nefc) {
  Ours o;
  o.tree = base.tree;
  o.cm = base.cm;
  o.cm.geom[g].solref[0] += dref;
  copy_state(m, d, *o.d);
  o.d->qpos[k] += dq;
  REQUIRE(tree_forward_constrained(o.tree, o.cm, *o.d, *o.cd, *o.ws) == TreeForwardStatus::kOk);
  for (int i = 0; i < m->nv; ++i) qacc[i] = o.d->qacc[i];
  nefc = o.cd->nefc;
  for (int r = 0; r < nefc; ++r) active[r] = o.cd->efc_active[r];
}

// Reverse mode: the gradient of sum_i qacc_i in qpos[k] and geom g's solref[0], taped, against the sum of
// the dual tangents (the same derivative accumulated in another order).
void check_reverse(const mjModel* m, const mjData* d, const Ours& base, int k, int g,
                   const TreeData<D2>& dual) {
  RevTape& tape = RevTape::current();
  tape.clear();
  auto tree = std::make_unique<TreeModel<Rev>>();
  auto cm = std::make_unique<TreeConstraintModel<Rev>>();
  tree_convert(base.tree, *tree);
  tree_constraint_convert(base.cm, *cm);
  const Rev ref = Rev::variable(base.cm.geom[g].solref[0]);
  cm->geom[g].solref[0] = ref;
  auto t = std::make_unique<TreeData<Rev>>();
  auto cd = std::make_unique<TreeConstraintData<Rev>>();
  auto ws = std::make_unique<TreeNewtonWorkspace>();
  copy_state(m, d, *t);
  const Rev q = Rev::variable(d->qpos[k]);
  t->qpos[k] = q;
  REQUIRE(tree_forward_constrained(*tree, *cm, *t, *cd, *ws) == TreeForwardStatus::kOk);
  Rev total = 0.0;
  for (int i = 0; i < m->nv; ++i) total = total + t->qacc[i];
  const std::vector<double> adj = reverse_sweep(tape, total.i);
  double want[2] = {0.0, 0.0};
  for (int i = 0; i < m->nv; ++i) want[0] += dual.qacc[i].d[0], want[1] += dual.qacc[i].d[1];
  const double got[2] = {adj[static_cast<std::size_t>(q.i)], adj[static_cast<std::size_t>(ref.i)]};
  for (int lane = 0; lane < 2; ++lane) {
    CAPTURE(lane);
    CHECK(got[lane] == doctest::Approx(want[lane]).epsilon(1e-9));
  }
  tape.clear();
}

// Lane 0: d qacc / d qpos[k]; lane 1: d qacc / d solref[0] of geom g; against central differences of the
// double pipeline, at a state whose rows and active set stay the same across the differences.
void check_derivatives(const std::string& name, const mjModel* m, const mjData* d, const Ours& base, int k,
                       int g) {
  CAPTURE(name);
  auto tree = std::make_unique<TreeModel<D2>>();
  auto cm = std::make_unique<TreeConstraintModel<D2>>();
  tree_convert(base.tree, *tree);
  tree_constraint_convert(base.cm, *cm);
  cm->geom[g].solref[0].d[1] = 1.0;
  auto t = std::make_unique<TreeData<D2>>();
  auto cd = std::make_unique<TreeConstraintData<D2>>();
  auto ws = std::make_unique<TreeNewtonWorkspace>();
  copy_state(m, d, *t);
  t->qpos[k].d[0] = 1.0;
  REQUIRE(tree_forward_constrained(*tree, *cm, *t, *cd, *ws) == TreeForwardStatus::kOk);
  REQUIRE(cd->nefc > 0);
  const int nv = m->nv;
  const double h[2] = {1e-6, 1e-7};
  double worst = 0.0;
  for (int lane = 0; lane < 2; ++lane) {
    double plus[kMaxDofs], minus[kMaxDofs];
    bool act_p[kMaxEfc], act_m[kMaxEfc];
    int n_p = 0, n_m = 0;
    qacc_double(base, m, d, k, lane == 0 ? h[0] : 0.0, g, lane == 1 ? h[1] : 0.0, plus, act_p, n_p);
    qacc_double(base, m, d, k, lane == 0 ? -h[0] : 0.0, g, lane == 1 ? -h[1] : 0.0, minus, act_m, n_m);
    REQUIRE(n_p == cd->nefc);
    REQUIRE(n_m == cd->nefc);
    for (int r = 0; r < n_p; ++r) REQUIRE((act_p[r] == cd->efc_active[r] && act_m[r] == cd->efc_active[r]));
    double diff = 0.0, scale = 1.0;
    for (int i = 0; i < nv; ++i) {
      const double fd = (plus[i] - minus[i]) / (2.0 * h[lane]);
      diff = std::fmax(diff, std::fabs(t->qacc[i].d[lane] - fd));
      scale = std::fmax(scale, std::fabs(fd));
      CHECK(t->qacc[i].v == doctest::Approx(base.d->qacc[i]).epsilon(1e-12));
    }
    worst = std::fmax(worst, diff / scale);
  }
  double largest[2] = {0.0, 0.0};
  for (int i = 0; i < nv; ++i)
    for (int l = 0; l < 2; ++l) largest[l] = std::fmax(largest[l], std::fabs(t->qacc[i].d[l]));
  CHECK(largest[0] > 0.0);
  CHECK(largest[1] > 0.0);
  MESSAGE(name << ": largest |tangent| per lane " << largest[0] << ", " << largest[1]);
  MESSAGE(name << ": " << cd->nefc << " rows; Dual tangents of qacc (qpos[" << k << "], geom " << g
               << " solref[0]) against central differences: worst error relative to max(1, |fd|) " << worst);
  CHECK(worst <= 1e-5);
  check_reverse(m, d, base, k, g, *t);
}

}  // namespace

TEST_CASE("articulated constrained qacc: Dual tangents match central differences, Rev gradients the duals") {
  std::string error;
  ModelPtr m = load_xml_text(kModels[2].xml, error);  // the arm at its limit touching the box
  INFO(error);
  REQUIRE(m);
  Ours o;
  map_model(m.get(), o);
  DataPtr d(mj_makeData(m.get()));
  // The elbow a degree past its upper limit, the sphere pressed 8 mm into the box's top edge from outside.
  d->qpos[0] = 0.0;
  d->qpos[1] = 61.0 * M_PI / 180.0;
  d->qpos[2] = 0.04;
  d->qpos[3] = 0.05;
  for (int v = 0; v < m->nv; ++v) d->qvel[v] = 0.1 * (v + 1);
  mj_forward(m.get(), d.get());
  copy_state(m.get(), d.get(), *o.d);
  REQUIRE(tree_forward_constrained(o.tree, o.cm, *o.d, *o.cd, *o.ws) == TreeForwardStatus::kOk);
  REQUIRE(o.cd->ncon >= 1);
  check_derivatives("arm", m.get(), d.get(), o, 1, 3);  // the elbow and the sphere (its priority: its solref)

  if (!std::filesystem::exists(kHumanoid)) {
    std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (libmujoco-samples)\n", kHumanoid);
    return;
  }
  char err[1000] = "";
  ModelPtr hm(mj_loadXML(kHumanoid, nullptr, err, sizeof(err)));
  REQUIRE(hm);
  Ours ho;
  map_model(hm.get(), ho);
  DataPtr hd(mj_makeData(hm.get()));
  hd->qpos[2] = 0.3;
  hd->qpos[3] = std::sqrt(0.5);
  hd->qpos[5] = -std::sqrt(0.5);
  for (int s = 0; s < 400; ++s) mj_step(hm.get(), hd.get());
  copy_state(hm.get(), hd.get(), *ho.d);
  REQUIRE(tree_forward_constrained(ho.tree, ho.cm, *ho.d, *ho.cd, *ho.ws) == TreeForwardStatus::kOk);
  // The root's height and the floor's solref.
  check_derivatives("humanoid", hm.get(), hd.get(), ho, 2, 0);
}

TEST_CASE("articulated tree_constraints_from_mjmodel refuses what the constraint stage cannot build") {
  const char* head = "<mujoco>";
  const struct {
    const char* what;
    const char* body;
  } cases[] = {
      {"friction loss", R"(<worldbody><body><joint type="hinge" frictionloss="0.1"/>
        <geom type="sphere" size=".1"/></body></worldbody>)"},
  };
  for (const auto& c : cases) {
    std::string error;
    ModelPtr m = load_xml_text(std::string(head) + c.body + "</mujoco>", error);
    INFO(c.what << ": " << error);
    REQUIRE(m);
    TreeModel<double> tree;
    REQUIRE(mjcf::tree_from_mjmodel(m.get(), tree).empty());
    TreeConstraintModel<double> cm;
    const std::string why = mjcf::tree_constraints_from_mjmodel(m.get(), tree, cm);
    MESSAGE(std::string(c.what) << ": " << why);
    CHECK(!why.empty());
  }
  // Torsional and rolling friction (condim 4 and 6) are built, not refused.
  std::string error;
  ModelPtr m = load_xml_text(std::string(head) + R"(<worldbody><geom type="plane" size="1 1 .1" condim="6"/>
        <body><joint type="slide"/><geom type="sphere" size=".1" condim="4"/></body></worldbody></mujoco>)",
                             error);
  REQUIRE(m);
  TreeModel<double> tree;
  REQUIRE(mjcf::tree_from_mjmodel(m.get(), tree).empty());
  TreeConstraintModel<double> cm;
  CHECK(mjcf::tree_constraints_from_mjmodel(m.get(), tree, cm).empty());
  CHECK(cm.geom[0].condim == 6);
  CHECK(cm.geom[1].condim == 4);
  CHECK(!cm.opt.elliptic);
  // Nor are elliptic cones.
  m = load_xml_text(
      std::string(head) + R"(<option cone="elliptic"/><worldbody><geom type="plane" size="1 1 .1"/>
        <body><joint type="slide"/><geom type="sphere" size=".1"/></body></worldbody></mujoco>)",
      error);
  REQUIRE(m);
  REQUIRE(mjcf::tree_from_mjmodel(m.get(), tree).empty());
  CHECK(mjcf::tree_constraints_from_mjmodel(m.get(), tree, cm).empty());
  CHECK(cm.opt.elliptic);
}
