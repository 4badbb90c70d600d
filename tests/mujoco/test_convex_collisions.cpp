// MuJoCo's convex collider (engine/collision/collide_convex.hpp: libccd's MPR and mjc_fixNormal) against
// MuJoCo 2.2.2's own mjc_Convex: two free geoms at random poses, the contact of mj_forward next to softgrad's
// collide() on MuJoCo's geom frames (the same inputs to the bit), for each of the 9 pairs MuJoCo sends to it,
// in either file order, with and without a margin; and the derivative of the contact against FD.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "engine/collision/collide.hpp"
#include "engine/core/dual.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "tests/time_limits.hpp"

using namespace sg;

namespace {

struct ConvexCase {
  GeomType a, b;
};

// The 9 pairs (an ellipsoid or a cylinder against a solid).
const ConvexCase kPairs[] = {
    {GeomType::sphere, GeomType::ellipsoid},    {GeomType::sphere, GeomType::cylinder},
    {GeomType::capsule, GeomType::ellipsoid},   {GeomType::capsule, GeomType::cylinder},
    {GeomType::ellipsoid, GeomType::ellipsoid}, {GeomType::ellipsoid, GeomType::cylinder},
    {GeomType::ellipsoid, GeomType::box},       {GeomType::cylinder, GeomType::cylinder},
    {GeomType::cylinder, GeomType::box}};

Vec3<double> random_size(GeomType t, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.05, 0.2);
  switch (t) {
    case GeomType::sphere:
      return {u(rng), 0.0, 0.0};
    case GeomType::capsule:
    case GeomType::cylinder:
      return {u(rng), u(rng), 0.0};
    default:
      return {u(rng), u(rng), u(rng)};
  }
}

std::string size_text(GeomType t, const Vec3<double>& s) {
  std::ostringstream os;
  os.precision(17);
  os << s.x;
  if (t != GeomType::sphere) os << ' ' << s.y;
  if (t == GeomType::ellipsoid || t == GeomType::box) os << ' ' << s.z;
  return os.str();
}

// Two free bodies (no gravity, no floor), each with one geom of the given margin.
std::string two_geoms(GeomType a, const Vec3<double>& sa, GeomType b, const Vec3<double>& sb, double margin) {
  std::ostringstream os;
  os << "<mujoco><option gravity=\"0 0 0\"/><worldbody>";
  const GeomType types[2] = {a, b};
  const Vec3<double> sizes[2] = {sa, sb};
  for (int k = 0; k < 2; ++k)
    os << "<body><freejoint/><geom type=\"" << geom_type_name(types[k]) << "\" size=\""
       << size_text(types[k], sizes[k]) << "\" margin=\"" << margin << "\"/></body>";
  os << "</worldbody></mujoco>";
  return os.str();
}

Vec3<double> random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  const Vec3<double> v(n(rng), n(rng), n(rng));
  return v / norm(v);
}

// A random orientation, as MuJoCo's qpos quaternion.
void random_quat(std::mt19937& rng, double* q) {
  std::normal_distribution<double> n(0.0, 1.0);
  double s = 0.0;
  for (int k = 0; k < 4; ++k) q[k] = n(rng), s += q[k] * q[k];
  for (int k = 0; k < 4; ++k) q[k] /= std::sqrt(s);
}

// Geom 1 at the origin and geom 2 a random fraction (0.2 to most) of their bounding radii away, both turned
// at random; then mj_forward, which collides them.
void place_at_random(mjcmp::MujocoSim& sim, double most, std::mt19937& rng) {
  std::uniform_real_distribution<double> reach(0.2, most);
  const Vec3<double> at = random_unit(rng) * ((sim.m->geom_rbound[0] + sim.m->geom_rbound[1]) * reach(rng));
  random_quat(rng, sim.d->qpos + 3);
  for (int k = 0; k < 3; ++k) sim.d->qpos[7 + k] = at[k];
  random_quat(rng, sim.d->qpos + 10);
  mj_forward(sim.m, sim.d);
}

Mat3<double> xmat(const mjData* d, int g) {
  Mat3<double> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = d->geom_xmat[9 * g + 3 * i + j];
  return r;
}

// softgrad's collide() on geom g1 and g2 of MuJoCo's data, at their frames.
int collide_geoms(const mjModel* m, const mjData* d, GeomType a, GeomType b, double margin,
                  Contact<double>* out) {
  const Mat3<double> ra = xmat(d, 0), rb = xmat(d, 1);
  const Pose<double> pa{{d->geom_xpos[0], d->geom_xpos[1], d->geom_xpos[2]}, {}, &ra};
  const Pose<double> pb{{d->geom_xpos[3], d->geom_xpos[4], d->geom_xpos[5]}, {}, &rb};
  const Vec3<double> sa(m->geom_size[0], m->geom_size[1], m->geom_size[2]);
  const Vec3<double> sb(m->geom_size[3], m->geom_size[4], m->geom_size[5]);
  CollisionOptions opt;
  opt.margin = margin;
  return collide(a, pa, sa, b, pb, sb, opt, out);
}

struct PairStats {
  int touching = 0, separated = 0;
  double worst = 0.0;  // largest difference of dist, position or normal
};

// `trials` random poses of the pair: the geoms' centres a random fraction of their bounding radii apart.
PairStats compare_pair(GeomType a, GeomType b, double margin, int trials, std::mt19937& rng) {
  PairStats st;
  for (int trial = 0; trial < trials; ++trial) {
    const Vec3<double> sa = random_size(a, rng), sb = random_size(b, rng);
    auto sim = mjcmp::load_mujoco(two_geoms(a, sa, b, sb, margin));
    mjModel* m = sim->m;
    mjData* d = sim->d;
    place_at_random(*sim, 1.05, rng);
    Contact<double> c[kMaxContactsPerPair];
    const int n = collide_geoms(m, d, a, b, margin, c);
    CAPTURE(trial);
    REQUIRE(n == d->ncon);
    if (n == 0) {
      ++st.separated;
      continue;
    }
    ++st.touching;
    const mjContact& mc = d->contact[0];
    const double sign = mc.geom1 == 0 ? 1.0 : -1.0;  // MuJoCo's geom 1 is the lower type
    double diff = std::fabs(c[0].dist - mc.dist);
    for (int k = 0; k < 3; ++k) {
      diff = std::fmax(diff, std::fabs(c[0].pos[k] - mc.pos[k]));
      diff = std::fmax(diff, std::fabs(c[0].frame[0][k] - sign * mc.frame[k]));
    }
    st.worst = std::fmax(st.worst, diff);
    CHECK(diff < 1e-12);
  }
  return st;
}

}  // namespace

TEST_CASE("the convex collider gives mjc_Convex's contact for each of its 9 pairs, in either order (1e-12)") {
  // 150 random poses per pair and file order, without and with a margin of 0.02: the contact exists exactly
  // where MuJoCo's does, and its distance, position and normal agree to 1e-12 at every pose (measured: 0).
  // Under ASan 30: each pose compiles a MuJoCo model and allocates its mjData, 0.055 s there (the 5400 poses
  // took 299 s alone, at the test's 300 s limit); the Release suite checks all 150.
  const int trials = sg::test::sanitizer_slowdown() > 1.0 ? 30 : 150;
  std::mt19937 rng(11);
  for (const ConvexCase& pc : kPairs) {
    for (int order = 0; order < 2; ++order) {
      const GeomType a = order ? pc.b : pc.a, b = order ? pc.a : pc.b;
      for (double margin : {0.0, 0.02}) {
        CAPTURE(std::string(geom_type_name(a)) + "-" + geom_type_name(b));
        CAPTURE(margin);
        const PairStats st = compare_pair(a, b, margin, trials, rng);
        MESSAGE((std::string(geom_type_name(a)) + "-" + geom_type_name(b))
                << " margin " << margin << ": " << st.touching << " touching, " << st.separated
                << " apart, worst " << st.worst);
        CHECK(st.touching >= trials / 5);
        CHECK(st.separated >= trials / 15);
      }
    }
  }
}

namespace {

// MPR's result and the fixed normal for geoms a (geom 1) and b of MuJoCo's data, b's centre moved by t along
// `axis`, in scalar S: what collide_convex computes, with MPR's path.
template <class S>
struct ConvexPiece {
  MprResult<S> mpr;
  Vec3<S> normal;
};

template <class S>
bool piece_moved(const mjModel* m, const mjData* d, GeomType a, GeomType b, const Vec3<double>& axis, S t,
                 ConvexPiece<S>* out) {
  Mat3<S> ra, rb;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      ra(i, j) = S(d->geom_xmat[3 * i + j]), rb(i, j) = S(d->geom_xmat[9 + 3 * i + j]);
  const Pose<S> pa{{S(d->geom_xpos[0]), S(d->geom_xpos[1]), S(d->geom_xpos[2])}, {}, &ra};
  Pose<S> pb{{S(d->geom_xpos[3]), S(d->geom_xpos[4]), S(d->geom_xpos[5])}, {}, &rb};
  pb.pos += Vec3<S>(S(axis.x), S(axis.y), S(axis.z)) * t;
  const double margin = m->geom_margin[0];
  const ConvexGeom<S> g1 =
      convex_geom(a, pa, Vec3<S>(S(m->geom_size[0]), S(m->geom_size[1]), S(m->geom_size[2])), margin);
  const ConvexGeom<S> g2 =
      convex_geom(b, pb, Vec3<S>(S(m->geom_size[3]), S(m->geom_size[4]), S(m->geom_size[5])), margin);
  if (!mpr_penetration(g1, g2, MprSettings{}, &out->mpr) || mpr_detail::is_origin(out->mpr.dir)) return false;
  out->normal = fix_contact_normal(g1, g2, out->mpr.pos, out->mpr.dir);
  return true;
}

// The largest difference between AD and central FD of step h over depth, position, MPR's and the fixed
// normal; *scale: the largest |AD|.
double largest_fd_gap(const ConvexPiece<Dual<1>>& ad, const ConvexPiece<double>& plus,
                      const ConvexPiece<double>& minus, double h, double* scale) {
  const auto fd = [h](double p, double m) { return (p - m) / (2 * h); };
  double err = std::fabs(ad.mpr.depth.d[0] - fd(plus.mpr.depth, minus.mpr.depth));
  *scale = std::fabs(ad.mpr.depth.d[0]);
  for (int k = 0; k < 3; ++k) {
    const double derivs[3] = {ad.mpr.pos[k].d[0], ad.mpr.dir[k].d[0], ad.normal[k].d[0]};
    const double fds[3] = {fd(plus.mpr.pos[k], minus.mpr.pos[k]), fd(plus.mpr.dir[k], minus.mpr.dir[k]),
                           fd(plus.normal[k], minus.normal[k])};
    for (int q = 0; q < 3; ++q) {
      err = std::fmax(err, std::fabs(derivs[q] - fds[q]));
      *scale = std::fmax(*scale, std::fabs(derivs[q]));
    }
  }
  return err;
}

}  // namespace

TEST_CASE("the convex contact's derivative (Dual) equals central FD on each smooth piece of MPR") {
  // 60 random touching poses per pair, geom 2 moved along a random direction. MPR's result is piecewise
  // smooth: each change of its branches (a portal vertex replaced, one more iteration) is a step of up to its
  // tolerance (1e-6 m), closer together than FD's step where it converges slowly (a sphere against a
  // cylinder: 7 to 26 iterations). Where the pose and both FD points take the same path (MprResult::path), AD
  // of the depth, position and both normals equals central FD (h = 1e-7) within 1e-4 of the derivatives'
  // scale (1 + max |AD|): measured 2.2e-5 at worst (sphere-cylinder; 7.3e-6 for the others: FD's truncation
  // on a nearly converged portal's normal, and the ellipsoid normal's own iteration). Such poses are at least
  // a third of each pair's (measured: 21 of 53 for sphere-cylinder, all or all but one for the others).
  std::mt19937 rng(5);
  const double h = 1e-7;
  for (const ConvexCase& pc : kPairs) {
    int same_path = 0, poses = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 60; ++trial) {
      const Vec3<double> sa = random_size(pc.a, rng), sb = random_size(pc.b, rng);
      auto sim = mjcmp::load_mujoco(two_geoms(pc.a, sa, pc.b, sb, 0.01));
      place_at_random(*sim, 0.9, rng);
      const Vec3<double> axis = random_unit(rng);
      Dual<1> t(0.0);
      t.d[0] = 1.0;
      ConvexPiece<Dual<1>> ad;
      ConvexPiece<double> plus, minus;
      if (!piece_moved(sim->m, sim->d, pc.a, pc.b, axis, t, &ad) ||
          !piece_moved(sim->m, sim->d, pc.a, pc.b, axis, h, &plus) ||
          !piece_moved(sim->m, sim->d, pc.a, pc.b, axis, -h, &minus))
        continue;
      ++poses;
      if (plus.mpr.path != ad.mpr.path || minus.mpr.path != ad.mpr.path) continue;
      ++same_path;
      double scale = 0.0;
      const double gap = largest_fd_gap(ad, plus, minus, h, &scale);
      worst = std::fmax(worst, gap / (1.0 + scale));
      CAPTURE(trial);
      CHECK(gap <= 1e-4 * (1.0 + scale));
    }
    MESSAGE((std::string(geom_type_name(pc.a)) + "-" + geom_type_name(pc.b))
            << ": " << poses << " touching poses, " << same_path << " on one piece, worst |AD - FD| / scale "
            << worst);
    CHECK(poses >= 30);
    CHECK(3 * same_path >= poses);
  }
}
