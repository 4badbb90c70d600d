// engine/articulated/'s constraint stage against MuJoCo 2.2.2's mj_forward: geom frames, mj_jac, contacts
// (matched by geom pair), constraint rows (efc_J, aref, R), qfrc_constraint and qacc, on inline models
// (a pendulum on the floor, a cart-pole at its slide limit, an arm at a hinge limit touching another
// tree's box) and the DeepMind humanoid lying on the floor; then the Dual tangent of the constrained qacc
// against central differences.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/articulated/forward_constrained.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/core/dual.hpp"
#include "mjcf/tree_constraints_from_mjmodel.hpp"
#include "mjcf/tree_from_mjmodel.hpp"

using namespace sg;

namespace {

// Geometry (poses, contacts, Jacobians, aref, R) is the same formulas in another order: rounding only.
constexpr double kGeomTol = 1e-9;
// qacc and the constraint forces: MuJoCo stops its Newton iterations at opt.tolerance (1e-8, on the
// cost's scaled improvement and gradient), softgrad's search at the exact minimiser of the final piece.
constexpr double kSolveTol = 1e-6;

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// Compiles MJCF text through MuJoCo's virtual file system (no file on disk).
ModelPtr load_xml_text(const std::string& xml, std::string& error) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0) {
    error = "VFS full";
    return nullptr;
  }
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  char err[1000] = "";
  ModelPtr m(mj_loadXML(name, vfs.get(), err, sizeof(err)));
  mj_deleteVFS(vfs.get());
  error = err;
  return m;
}

struct NamedXml {
  const char* name;
  const char* xml;
};

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
};

const char* kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";

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
  int states = 0, contacts = 0, rows = 0;
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
    w.jac = std::fmax(w.jac, std::fmax(rel_vec(ours_p, jp.data(), 3 * nv), rel_vec(ours_r, jr.data(), 3 * nv)));
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
  w.efc_J = std::fmax(w.efc_J, rel_vec(cd.efc_J + our_row * kMaxDofs, d->efc_J + mj_row * nv, nv));
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
    if (e > 1e-9 && std::getenv("SG_DEBUG"))
      std::printf("contact %d geoms %d %d types %d %d dist %g/%g pos %g %g %g / %g %g %g n %g %g %g / %g %g %g t %g %g %g / %g %g %g\n", k, c.geom1, c.geom2, m->geom_type[c.geom1], m->geom_type[c.geom2], o.dist, c.dist, o.pos.x, o.pos.y, o.pos.z, c.pos[0], c.pos[1], c.pos[2], o.frame[0].x, o.frame[0].y, o.frame[0].z, c.frame[0], c.frame[1], c.frame[2], o.frame[1].x, o.frame[1].y, o.frame[1].z, c.frame[3], c.frame[4], c.frame[5]);
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
      for (int b = 0; b < 3; ++b) w.geom = std::fmax(w.geom, rel(cd.geom_xmat[g].m[a][b], d->geom_xmat[9 * g + 3 * a + b]));
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
               << " rows; worst errors relative to max(1, |x|): geom frames " << w.geom << ", mj_jac " << w.jac
               << ", contacts " << w.contact << ", efc_J " << w.efc_J << ", efc_aref " << w.aref
               << ", efc_R (relative) " << w.R << ", efc_force " << w.force << ", qfrc_constraint " << w.qfrc
               << ", qacc " << w.qacc);
  CHECK(w.geom <= kGeomTol);
  CHECK(w.jac <= kGeomTol);
  CHECK(w.contact <= kGeomTol);
  CHECK(w.efc_J <= kGeomTol);
  CHECK(w.aref <= kGeomTol);
  CHECK(w.R <= kGeomTol);
  CHECK(w.force <= kSolveTol);
  CHECK(w.qfrc <= kSolveTol);
  CHECK(w.qacc <= kSolveTol);
}

// Random states near the model's rest pose: joints perturbed by up to `spread`, velocities up to vmax.
void perturb(const mjModel* m, mjData* d, std::mt19937& rng, double spread, double vmax) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int j = 0; j < m->njnt; ++j) {
    const int t = m->jnt_type[j];
    if (t == mjJNT_HINGE || t == mjJNT_SLIDE) d->qpos[m->jnt_qposadr[j]] = m->qpos0[m->jnt_qposadr[j]] + spread * u(rng);
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
    MESSAGE(nx.name << ": " << with_rows << " of 30 states have constraint rows");
    CHECK(with_rows >= 5);
    report_and_check(nx.name, w);
  }
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
  CHECK(w.contacts >= 20);
  report_and_check("humanoid", w);
}
