// Tendons and muscles (issue #37 section 3) against libmujoco 2.2.2: the muscle curves against
// mju_muscleGain, mju_muscleBias and mju_muscleDynamics; tendon lengths and Jacobians (fixed, and spatial
// around spheres and cylinders, with outside and inside side sites), actuator lengths, moments, forces and
// activation rates against mj_forward at random states; MuJoCo's tendon_arm/arm26.xml (6 muscles on wrapping
// tendons) against mj_step over 500 steps with random constant controls; AD against central FD over sweeps
// and reverse mode against forward mode; the site loss; and the refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/articulated/forward_actuated.hpp"
#include "engine/core/dual.hpp"
#include "engine/model/tree_system.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"
#include "tests/mjcf/mujoco_models.hpp"

using namespace sg;
using namespace sg::test;
using sg::test::load_xml_file;
using sg::test::load_xml_text;
using sg::test::make_reference_data;

namespace {

const char* kArm26 = "/usr/share/mujoco/model/tendon_arm/arm26.xml";

// Every kind of path: a world site, a cylinder fixed to the world, a sphere on the first link wrapped on
// the side of an outside side site (T1) and of one inside it (T2: MuJoCo's inside wrap), a fixed tendon over
// a hinge, a second hinge and a slide with a spring and damper (T3); a muscle on T1, a geared motor on T3,
// a position actuator on a hinge.
const char* kWrapModel = R"(
<mujoco>
  <option timestep="0.002" gravity="0 0 -9.81"><flag contact="disable"/></option>
  <worldbody>
    <site name="a" pos="0.12 0 0.75"/>
    <geom name="pulleyC" type="cylinder" pos="0.02 0 0.62" size="0.04 0.02" euler="90 0 0" mass="0"/>
    <body name="upper" pos="0 0 0.5">
      <joint name="j1" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.03" mass="1"/>
      <geom name="knob" type="sphere" pos="0 0 -0.4" size="0.06" mass="0.1"/>
      <site name="c" pos="-0.08 0 -0.1"/>
      <site name="side_out" pos="-0.2 0 -0.4"/>
      <site name="side_in" pos="0.02 0 -0.41"/>
      <body name="lower" pos="0 0 -0.4">
        <joint name="j2" type="hinge" axis="0 1 0"/>
        <joint name="j3" type="slide" axis="0 0 1" stiffness="20"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.3" size="0.025" mass="0.6"/>
        <site name="b" pos="0.05 0 -0.2"/>
        <site name="d" pos="-0.05 0 -0.15"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="T1" stiffness="30" damping="1.5" springlength="0.9">
      <site site="a"/>
      <geom geom="pulleyC"/>
      <site site="c"/>
      <geom geom="knob" sidesite="side_out"/>
      <site site="d"/>
    </spatial>
    <spatial name="T2">
      <site site="a"/>
      <geom geom="knob" sidesite="side_in"/>
      <site site="b"/>
    </spatial>
    <fixed name="T3" stiffness="10" damping="0.3">
      <joint joint="j1" coef="1"/>
      <joint joint="j2" coef="-0.5"/>
      <joint joint="j3" coef="2"/>
    </fixed>
  </tendon>
  <actuator>
    <motor name="motor" tendon="T3" gear="2"/>
    <position name="servo" joint="j2" kp="5"/>
    <muscle name="m1" tendon="T1" ctrllimited="true" ctrlrange="0 1" lengthrange="0.6 1.2"/>
    <muscle name="m2" tendon="T2" ctrllimited="true" ctrlrange="0 1" force="30" lengthrange="0.6 1.1"/>
  </actuator>
</mujoco>)";

double rel(double a, double b) {
  return std::fabs(a - b) / std::max(1.0, std::fabs(b));
}

std::string model_scene(const std::string& name, const std::string& mjcf, const nlohmann::json& extra = {}) {
  nlohmann::json scene = {{"name", name},
                          {"model", {{"type", "mjcf"}, {"file", mjcf}}},
                          {"integrator", {{"steps", 200}}},
                          {"loss", {{"terms", {{{"quantity", "position"}, {"body", 1}, {"axis", "x"}}}}}}};
  if (!extra.is_null()) scene.merge_patch(extra);
  return write_scene(name, scene);
}

// Largest relative differences of the tendon and actuation quantities against mj_forward.
struct Worst {
  double length = 0, jac = 0, act_length = 0, moment = 0, force = 0, act_dot = 0, qfrc_passive = 0;
};

// At random states (qpos within the joints' ranges, qvel, act in [0, 1], ctrl in [-0.2, 1.2]), softgrad's
// stages against MuJoCo's on the same numbers.
Worst compare_forward(const std::string& xml_path, const Problem& p, int states, unsigned seed) {
  std::string error;
  const auto m = load_xml_file(xml_path, error);
  REQUIRE_MESSAGE(m, error);
  const auto d = make_reference_data(m.get());
  const JointTreeModel<double>& jt = p.data.tree;
  REQUIRE(m->nq == jt.tree.nq);
  REQUIRE(m->ntendon == jt.act.ten.ntendon);
  REQUIRE(m->na == jt.act.na);
  auto t = std::make_unique<TreeModel<double>>(jt.tree);
  for (int i = 0; i < m->nv; ++i) t->damping[i] = m->dof_damping[i];
  auto td = std::make_unique<TreeData<double>>();
  auto ad = std::make_unique<TreeActuatorData<double>>();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Worst w;
  for (int s = 0; s < states; ++s) {
    for (int i = 0; i < m->nq; ++i) d->qpos[i] = -1.0 + 2.0 * u(rng);
    for (int i = 0; i < m->nv; ++i) d->qvel[i] = -2.0 + 4.0 * u(rng);
    for (int i = 0; i < m->na; ++i) d->act[i] = u(rng);
    for (int i = 0; i < m->nu; ++i) d->ctrl[i] = -0.2 + 1.4 * u(rng);
    mj_forward(m.get(), d.get());
    for (int i = 0; i < m->nq; ++i) td->qpos[i] = d->qpos[i];
    for (int i = 0; i < m->nv; ++i) td->qvel[i] = d->qvel[i];
    for (int i = 0; i < m->na; ++i) ad->act[i] = d->act[i];
    for (int i = 0; i < m->nu; ++i) ad->ctrl[i] = d->ctrl[i];
    tree_fwd_position(*t, *td);
    tree_fwd_velocity(*t, *td);
    tree_actuation(*t, jt.act, *td, *ad);
    for (int i = 0; i < m->ntendon; ++i) {
      w.length = std::max(w.length, rel(ad->ten.ten_length[i], d->ten_length[i]));
      for (int k = 0; k < m->nv; ++k)
        w.jac = std::max(w.jac, rel(ad->ten.ten_J[i * m->nv + k], d->ten_J[i * m->nv + k]));
    }
    for (int i = 0; i < m->nu; ++i) {
      w.act_length = std::max(w.act_length, rel(ad->actuator_length[i], d->actuator_length[i]));
      w.force = std::max(w.force, rel(ad->actuator_force[i], d->actuator_force[i]));
      for (int k = 0; k < m->nv; ++k)
        w.moment =
            std::max(w.moment, rel(ad->actuator_moment[i * m->nv + k], d->actuator_moment[i * m->nv + k]));
    }
    for (int i = 0; i < m->na; ++i) w.act_dot = std::max(w.act_dot, rel(ad->act_dot[i], d->act_dot[i]));
    for (int i = 0; i < m->nv; ++i)
      w.qfrc_passive = std::max(w.qfrc_passive, rel(td->qfrc_passive[i], d->qfrc_passive[i]));
  }
  return w;
}

void check_worst(const Worst& w, double tol) {
  MESSAGE("tendon length " << w.length << ", ten_J " << w.jac << ", actuator length " << w.act_length
                           << ", moment " << w.moment << ", force " << w.force << ", act_dot " << w.act_dot
                           << ", qfrc_passive " << w.qfrc_passive);
  CHECK(w.length <= tol);
  CHECK(w.jac <= tol);
  CHECK(w.act_length <= tol);
  CHECK(w.moment <= tol);
  CHECK(w.force <= tol);
  CHECK(w.act_dot <= tol);
  CHECK(w.qfrc_passive <= tol);
}

// Random constant controls in [0, 1] for arm26's six muscles, as --set overrides.
std::vector<std::string> random_controls(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::string> sets;
  for (int i = 0; i < 6; ++i)
    sets.push_back("model.tree.actuators." + std::to_string(i) + ".ctrl=" + std::to_string(u(rng)));
  return sets;
}

// arm26's 11 sites as they are, and a hand site at the forearm's tip (scene index 11).
nlohmann::json hand_site() {
  nlohmann::json sites = nlohmann::json::array();
  for (int i = 0; i < 11; ++i) sites.push_back(nlohmann::json::object());
  sites.push_back({{"name", "hand"}, {"body", 1}, {"pos", {0.5, 0, 0}}});
  return sites;
}

}  // namespace

TEST_CASE("muscle curves and activation dynamics equal MuJoCo's mju_muscleGain, Bias and Dynamics") {
  // MuJoCo's defaults (range, force, scale, lmin, lmax, vmax, fpmax, fvmax) and a fixed peak force.
  const double prms[2][9] = {{0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2},
                             {0.6, 1.2, 35, 200, 0.4, 1.8, 2, 1.5, 1.4}};
  const double lengthrange[2] = {0.2, 0.5};
  const double acc0 = 7.5, dynprm[2] = {0.01, 0.04};
  double worst = 0.0;
  int points = 0;
  for (const auto& prm : prms)
    for (double len = 0.05; len <= 0.75; len += 0.0137)
      for (double vel = -1.0; vel <= 1.0; vel += 0.093) {
        worst = std::max(worst, rel(muscle_gain(len, vel, lengthrange, acc0, prm),
                                    mju_muscleGain(len, vel, lengthrange, acc0, prm)));
        worst = std::max(worst, rel(muscle_bias(len, lengthrange, acc0, prm),
                                    mju_muscleBias(len, lengthrange, acc0, prm)));
        ++points;
      }
  for (double ctrl = -0.3; ctrl <= 1.3; ctrl += 0.07)
    for (double act = -0.2; act <= 1.2; act += 0.05)
      worst = std::max(worst, rel(muscle_dynamics(ctrl, act, dynprm), mju_muscleDynamics(ctrl, act, dynprm)));
  MESSAGE("worst relative difference over " << points << " length-velocity points: " << worst);
  CHECK(worst <= 1e-15);
  // The tangent of the gain in the length against central differences, away from the curves' joints.
  const double h = 1e-7;
  for (double len = 0.21; len <= 0.6; len += 0.031) {
    Dual<1> l(len);
    l.d[0] = 1.0;
    Dual<1> lr[2] = {Dual<1>(lengthrange[0]), Dual<1>(lengthrange[1])}, prm[9];
    for (int k = 0; k < 9; ++k) prm[k] = Dual<1>(prms[0][k]);
    const Dual<1> g = muscle_gain(l, Dual<1>(0.3), lr, Dual<1>(acc0), prm);
    const double fd = (muscle_gain(len + h, 0.3, lengthrange, acc0, prms[0]) -
                       muscle_gain(len - h, 0.3, lengthrange, acc0, prms[0])) /
                      (2 * h);
    CAPTURE(len);
    CHECK(std::fabs(g.d[0] - fd) <= 1e-6 * std::max(1.0, std::fabs(fd)));
  }
}

TEST_CASE("tendon lengths, Jacobians and muscle forces equal mj_forward at random states") {
  SUBCASE("every path kind: cylinder, sphere with outside and inside side sites, a fixed tendon") {
    const std::string xml = write_mjcf("tendon_wrap", kWrapModel);
    const Problem p = load_scene(model_scene("tendon_wrap", xml));
    REQUIRE(p.data.tree.act.ten.ntendon == 3);
    REQUIRE(p.data.tree.act.na == 2);
    check_worst(compare_forward(xml, p, 400, 7), 1e-12);
  }
  SUBCASE("arm26") {
    const Problem p = load_scene(model_scene("arm26_forward", kArm26));
    REQUIRE(p.data.tree.act.ten.ntendon == 6);
    REQUIRE(p.data.tree.act.na == 6);
    check_worst(compare_forward(kArm26, p, 400, 11), 1e-12);
  }
}

TEST_CASE("arm26 follows mj_step over 500 steps with random constant muscle controls") {
  // Positions, velocities and activations to 1e-9 (issue #37); measured: rounding (below 1e-13).
  const std::string scene = model_scene("arm26_steps", kArm26);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Problem p = load_scene(scene, random_controls(seed));
    const mjcf::TreeStepComparison c =
        mjcf::compare_tree_with_mj_step(p.data.tree, kArm26, 500, 0.005, false);
    MESSAGE("arm26, controls seed " << seed << ": |dqpos| " << c.qpos << ", |dqvel| " << c.qvel << ", |dact| "
                                    << c.act);
    CHECK(c.qpos <= 1e-9);
    CHECK(c.qvel <= 1e-9);
    CHECK(c.act <= 1e-9);
  }
  // A start with the muscles already active, and the wrap model under RK4.
  const Problem active =
      load_scene(scene, {"model.tree.actuators.2.act=0.8", "model.tree.actuators.5.act=0.4"});
  const mjcf::TreeStepComparison a =
      mjcf::compare_tree_with_mj_step(active.data.tree, kArm26, 500, 0.005, false);
  CHECK(a.qpos <= 1e-9);
  CHECK(a.act <= 1e-9);
  const std::string xml = write_mjcf("tendon_wrap_steps", kWrapModel);
  const Problem wrap = load_scene(model_scene("tendon_wrap_steps", xml),
                                  {"model.tree.actuators.0.ctrl=0.7", "model.tree.actuators.1.ctrl=0.3",
                                   "model.tree.actuators.2.ctrl=0.4", "model.tree.actuators.3.ctrl=0.9"});
  for (bool rk4 : {false, true}) {
    const mjcf::TreeStepComparison w = mjcf::compare_tree_with_mj_step(wrap.data.tree, xml, 500, 0.002, rk4);
    MESSAGE("wrap model, " << std::string(rk4 ? "RK4" : "Euler") << ": |dqpos| " << w.qpos << ", |dact| "
                           << w.act);
    CHECK(w.qpos <= 1e-9);
    CHECK(w.qvel <= 1e-9);
    CHECK(w.act <= 1e-9);
  }
}

TEST_CASE("muscle and tendon scenes: AD against central FD over sweeps, reverse mode equals forward mode") {
  // arm26 with a hand site added by the scene, scored by the site's position: a control, a time constant and
  // a site position (every point of each sweep; the ends of ctrlrange excluded, where the clamp kinks).
  const nlohmann::json hand = {
      {"model", {{"tree", {{"sites", hand_site()}}}}},
      {"loss", {{"terms", {{{"quantity", "site"}, {"site", "hand"}, {"axis", "y"}}}}}},
      {"integrator", {{"steps", 120}}}};
  const std::string scene = model_scene("arm26_hand", kArm26, hand);
  std::vector<std::string> controls = random_controls(3);
  struct Sweep {
    const char* parameter;
    double from, to;
  };
  const Sweep sweeps[] = {{"model.tree.actuators.2.ctrl", 0.05, 0.95},
                          {"model.tree.actuators.4.timeconst.0", 0.005, 0.05},
                          {"model.tree.sites.6.pos.1", 0.06, 0.14}};
  for (const Sweep& s : sweeps) {
    std::vector<std::string> sets = controls;
    sets.push_back(std::string("sweep.parameter=") + s.parameter);
    sets.push_back("sweep.from=" + std::to_string(s.from));
    sets.push_back("sweep.to=" + std::to_string(s.to));
    sets.push_back("sweep.points=9");
    const Problem p = load_scene(scene, sets);
    const double worst = check_sweep_ad_fd(run_sweep(p), 9, 1e-4, true, 1e-6);
    MESSAGE(std::string(s.parameter) << ": worst relative AD-FD difference " << worst);
  }
  const Problem p = load_scene(scene, controls);
  check_reverse_equals_forward("arm26 hand", p,
                               {"model.tree.actuators.0.ctrl", "model.tree.actuators.3.act",
                                "model.tree.actuators.5.timeconst.0", "model.tree.sites.3.pos.0"},
                               0, true, 1e-6);
  // The wrap model's tendon spring and a muscle's control, at Tsit5 1e-10 too. The gradient is small (4e-4 of
  // a loss near 0.1): FD steps of 1e-4 relative keep the solver's 1e-10 error out of the difference (at 1e-6
  // it reaches 1e-2 of the gradient; AD itself does not move). m2 stays inactive here: with it pulling, its
  // tendon's inside wrap switches (docs/engine.md, "Tendons and muscles") put Tsit5's frozen-step AD 1e-3 off
  // FD; Euler's AD is exact either way (the geom sweeps below).
  const std::string xml = write_mjcf("tendon_wrap_ad", kWrapModel);
  const std::string wrap = model_scene("tendon_wrap_ad", xml);
  for (const char* method : {"euler", "tsit5"}) {
    const Problem w =
        load_scene(wrap, {std::string("integrator.type=") + method, "integrator.rtol=1e-10",
                          "integrator.atol=1e-10", "integrator.max_steps=100000", "gradient.fd_eps=1e-4",
                          "model.tree.actuators.2.ctrl=0.6", "sweep.parameter=model.tree.tendons.0.stiffness",
                          "sweep.from=10", "sweep.to=60", "sweep.points=7"});
    const double worst = check_sweep_ad_fd(run_sweep(w), 7, 1e-4, true, 1e-6);
    MESSAGE("wrap model, " << std::string(method) << ": worst relative AD-FD difference " << worst);
    check_reverse_equals_forward("wrap model", w,
                                 {"model.tree.tendons.0.stiffness", "model.tree.tendons.2.damping",
                                  "model.tree.actuators.0.ctrl", "model.tree.actuators.3.ctrl",
                                  "model.tree.bodies.0.geoms.1.size.0", "model.tree.world_geoms.0.pos.0"},
                                 0, true, 1e-6);
  }
  // The wrap geoms' radii: a run takes them from the geoms (a scene number each), so sweeps, AD and FD see
  // them move the tendons (the knob's through m2's tendon, wrapped from inside, with m2 active).
  for (const char* geom : {"model.tree.bodies.0.geoms.1.size.0", "model.tree.world_geoms.0.size.0"}) {
    const Problem g = load_scene(
        wrap, {"model.tree.actuators.2.ctrl=0.6", "model.tree.actuators.3.ctrl=0.8",
               std::string("sweep.parameter=") + geom, "sweep.from=0.03", "sweep.to=0.05", "sweep.points=7"});
    const SweepResult r = run_sweep(g);
    const double worst = check_sweep_ad_fd(r, 7, 1e-4, true, 1e-6);
    CHECK(r.points.front().loss != r.points.back().loss);
    MESSAGE(std::string(geom) << ": worst relative AD-FD difference " << worst);
  }
}

TEST_CASE("a muscle without a length range gets the one MuJoCo's compiler computes") {
  // arm26's six muscles with their ranges cleared: softgrad's simulation (tree_lengthrange.hpp) against the
  // compiled model's actuator_lengthrange (MuJoCo's mj_setLengthRange on the same file). The same algorithm
  // on the same steps: measured 1e-15 relative; the test allows 1e-9.
  std::string error;
  const auto m = load_xml_file(kArm26, error);
  REQUIRE_MESSAGE(m, error);
  std::vector<std::string> cleared;
  for (int i = 0; i < 6; ++i)
    cleared.push_back("model.tree.actuators." + std::to_string(i) + ".lengthrange=[0,0]");
  const Problem p = load_scene(model_scene("arm26_lengthrange", kArm26), cleared);
  double worst = 0.0;
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 2; ++k) {
      const double ours = p.data.tree.act.actuator[i].lengthrange[k],
                   theirs = m->actuator_lengthrange[2 * i + k];
      CAPTURE(i);
      CHECK(ours != 0.0);
      worst = std::max(worst, std::fabs(ours - theirs) / std::fabs(theirs));
    }
  MESSAGE("arm26 length ranges: worst relative difference from MuJoCo's " << worst);
  CHECK(worst <= 1e-9);
  // Where MuJoCo's compiler gives up (the wrap model's unbounded slide: a side does not settle), so does the
  // scene, at the muscle's key.
  const std::string xml = write_mjcf("tendon_lengthrange", kWrapModel);
  mjcf::register_importer();
  const ProblemLoad unbounded =
      load_problem_file(model_scene("tendon_lengthrange", xml), {"model.tree.actuators.2.lengthrange=[0,0]"});
  REQUIRE_FALSE(unbounded.ok());
  CAPTURE(unbounded.errors);
  CHECK(
      unbounded.errors.find("model.tree.actuators.2.lengthrange: MuJoCo's length-range computation for this "
                            "muscle failed: the computation did not converge") != std::string::npos);
}

TEST_CASE("tendon and muscle scenes refuse what they cannot simulate, naming the key or element") {
  SUBCASE("scene: unknown names, a box to wrap around, a path that does not end at a site") {
    const std::string xml = write_mjcf("tendon_refusals", kWrapModel);
    const std::string scene = model_scene("tendon_refusals", xml);
    struct Case {
      std::string set, expected;
    };
    const Case cases[] = {
        {"model.tree.tendons.1.path.1.sidesite=nowhere",
         "model.tree.tendons.1.path.1.sidesite: no site named 'nowhere'"},
        {"model.tree.tendons.1.path.0.site=nowhere",
         "model.tree.tendons.1.path.0.site: no site named 'nowhere'"},
        {"model.tree.tendons.2.path.0.joint=nowhere",
         "model.tree.tendons.2.path.0.joint: no joint named 'nowhere'"},
        {"model.tree.actuators.1.tendon=nowhere", "model.tree.actuators.1.tendon: no tendon named 'nowhere'"},
        {"model.tree.actuators.2.lengthrange=[0.5,0.2]", "model.tree.actuators.2.lengthrange"},
        {"model.tree.actuators.2.dyntype=filter",
         "model.tree.actuators.2.dyntype: a muscle has its own activation dynamics"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.set);
      mjcf::register_importer();
      const ProblemLoad loaded = load_problem_file(scene, {c.set});
      CHECK_FALSE(loaded.ok());
      CAPTURE(loaded.errors);
      CHECK(loaded.errors.find(c.expected) != std::string::npos);
    }
  }
}
