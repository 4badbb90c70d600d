// Each MJCF attribute the import supports reaches its scene key (docs/mujoco-validation.md, "MJCF import").
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/core/quat.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;
using sg::test::imported;
using sg::test::mjcf_model;

namespace {

void check_vector(const json& got, std::initializer_list<double> want, double tol = 0.0) {
  REQUIRE(got.size() == want.size());
  std::size_t i = 0;
  for (double w : want) {
    CAPTURE(i);
    CHECK(std::fabs(got[i++].get<double>() - w) <= tol);
  }
}

// The orientation the scene's Euler angles give (softgrad's own conversion) against MuJoCo's geom frame.
double orientation_error(const json& euler, const mjtNum* xmat) {
  const sg::Quat<double> q =
      sg::from_euler_xyz(euler[0].get<double>(), euler[1].get<double>(), euler[2].get<double>());
  const mjtNum quat[4] = {q.w, q.x, q.y, q.z};
  mjtNum r[9];
  mju_quat2Mat(r, quat);
  double worst = 0.0;
  for (int k = 0; k < 9; ++k) worst = std::fmax(worst, std::fabs(r[k] - xmat[k]));
  return worst;
}

}  // namespace

TEST_CASE("options: gravity, timestep, impratio, cone, integrator and refsafe reach their scene keys") {
  const json k = imported("options", mjcf_model(R"(
    <body><freejoint/><geom type="sphere" size="0.1"/></body>)",
                                                R"(
    <option timestep="0.005" gravity="0.5 -1 -3" impratio="2" cone="elliptic" integrator="RK4">
      <flag refsafe="disable"/>
    </option>)"));
  check_vector(k["model"]["gravity"], {0.5, -1, -3});
  CHECK(k["integrator"]["dt"] == 0.005);
  CHECK(k["integrator"]["type"] == "rk4");
  CHECK(k["contact"]["model"] == "mujoco");
  CHECK(k["contact"]["mujoco"]["impratio"] == 2.0);
  CHECK(k["contact"]["mujoco"]["cone"] == "elliptic");
  CHECK(k["contact"]["mujoco"]["refsafe"] == false);

  // MuJoCo's defaults: Euler, pyramidal, refsafe on, gravity -9.81, 2 ms.
  const json d =
      imported("defaults", mjcf_model(R"(<body><freejoint/><geom type="sphere" size="0.1"/></body>)"));
  check_vector(d["model"]["gravity"], {0, 0, -9.81});
  CHECK(d["integrator"]["dt"] == 0.002);
  CHECK(d["integrator"]["type"] == "euler");
  CHECK(d["contact"]["mujoco"]["cone"] == "pyramidal");
  CHECK(d["contact"]["mujoco"]["refsafe"] == true);
  CHECK(d["model"]["plane"]["enabled"] == false);  // no plane in the XML
}

TEST_CASE("disable flags: gravity zeroes gravity, contact or constraint turns contacts off") {
  const std::string body = R"(<body><freejoint/><geom type="sphere" size="0.1"/></body>)";
  const json g = imported("no_gravity", mjcf_model(body, R"(<option><flag gravity="disable"/></option>)"));
  check_vector(g["model"]["gravity"], {0, 0, 0});
  CHECK(g["contact"]["model"] == "mujoco");
  const json c = imported("no_contact", mjcf_model(body, R"(<option><flag contact="disable"/></option>)"));
  CHECK(c["contact"]["model"] == "none");
  const json s =
      imported("no_constraint", mjcf_model(body, R"(<option><flag constraint="disable"/></option>)"));
  CHECK(s["contact"]["model"] == "none");
  // Flags without a counterpart that change nothing for free bodies are accepted.
  imported("harmless_flags",
           mjcf_model(body, R"(<option><flag warmstart="disable" filterparent="disable" limit="disable"
                                           equality="disable" frictionloss="disable" passive="disable"
                                           actuation="disable" clampctrl="disable" sensor="disable"
                                           energy="enable"/></option>)"));
}

TEST_CASE("the plane: height, friction, solref, solimp, condim, margin") {
  const json k = imported("plane", mjcf_model(R"(
    <geom name="ground" type="plane" size="1 1 0.1" pos="0.3 -0.2 0.25" euler="0 0 30"
          friction="0.7 0.02 0.003" solref="0.03 0.8" solimp="0.8 0.9 0.002 0.4 3" condim="1" margin="0.004"/>
    <body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>)"));
  const json& p = k["model"]["plane"];
  CHECK(p["enabled"] == true);
  CHECK(p["height"] == 0.25);  // a turn about z keeps the plane level
  check_vector(p["friction"], {0.7, 0.02, 0.003});
  check_vector(p["solref"], {0.03, 0.8});
  check_vector(p["solimp"], {0.8, 0.9, 0.002, 0.4, 3});
  CHECK(p["condim"] == 1);
  CHECK(p["margin"] == 0.004);
}

TEST_CASE("bodies: shape, size, density or mass, pose, and the geom's contact parameters") {
  const json k = imported("bodies", mjcf_model(R"(
    <body name="ball" pos="0 0 1">
      <freejoint/>
      <geom type="sphere" size="0.1" density="500" friction="0.3 0.01 0.002" solref="-1000 -10"
            solimp="0.7 0.8 0.01 0.3 2" condim="1" margin="0.002"/>
    </body>
    <body name="pill" pos="1 0 1" euler="0 90 0">
      <freejoint/><geom type="capsule" size="0.05 0.2" mass="2"/>
    </body>
    <body name="can" pos="2 0 1" euler="10 20 30"><freejoint/><geom type="cylinder" size="0.04 0.05"/></body>
    <body name="egg" pos="3 0 1"><freejoint/><geom type="ellipsoid" size="0.05 0.06 0.1"/></body>
    <body name="crate" pos="4 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3" density="250"/></body>)"));
  const json& b = k["model"]["bodies"];
  REQUIRE(b.size() == 5);
  CHECK(b[0]["shape"] == "sphere");
  check_vector(b[0]["size"], {0.1, 0.1, 0.1});  // unused components repeat the radius
  CHECK(b[0]["density"] == 500.0);              // MuJoCo's mass / volume is the XML's density
  CHECK(b[0]["mass"] == 0.0);
  check_vector(b[0]["pos"], {0, 0, 1});
  check_vector(b[0]["euler"], {0, 0, 0});
  check_vector(b[0]["vel"], {0, 0, 0});
  check_vector(b[0]["angvel"], {0, 0, 0});
  check_vector(b[0]["friction"], {0.3, 0.01, 0.002});
  check_vector(b[0]["solref"], {-1000, -10});
  check_vector(b[0]["solimp"], {0.7, 0.8, 0.01, 0.3, 2});
  CHECK(b[0]["condim"] == 1);
  CHECK(b[0]["margin"] == 0.002);

  CHECK(b[1]["shape"] == "capsule");
  check_vector(b[1]["size"], {0.05, 0.2, 0.05});
  CHECK(b[1]["mass"] == 2.0);                          // a given mass is kept as MuJoCo has it
  check_vector(b[1]["euler"], {0, 90, 0}, 1e-12);      // gimbal lock: the angles come back all the same
  check_vector(b[1]["friction"], {1, 0.005, 0.0001});  // MuJoCo's defaults
  check_vector(b[1]["solref"], {0.02, 1});
  check_vector(b[1]["solimp"], {0.9, 0.95, 0.001, 0.5, 2});
  CHECK(b[1]["condim"] == 3);

  CHECK(b[2]["shape"] == "cylinder");
  check_vector(b[2]["size"], {0.04, 0.05, 0.04});
  check_vector(b[2]["euler"], {10, 20, 30});
  CHECK(b[2]["density"] == 1000.0);
  CHECK(b[3]["shape"] == "ellipsoid");
  check_vector(b[3]["size"], {0.05, 0.06, 0.1});
  CHECK(b[4]["shape"] == "box");
  check_vector(b[4]["size"], {0.1, 0.2, 0.3});
  CHECK(b[4]["density"] == 250.0);
  CHECK(k["model"]["collide_bodies"] == true);
}

TEST_CASE("a geom placed and turned inside its body: softgrad's body is the geom's frame") {
  const std::string xml = mjcf_model(R"(
    <body name="arm" pos="0.1 0.2 0.5" euler="0 0 90">
      <freejoint/>
      <geom name="rod" type="capsule" size="0.02 0.1" pos="0.05 0 0" euler="30 0 0"/>
    </body>)");
  const json k = imported("geom_frame", xml);
  const json& b = k["model"]["bodies"][0];
  // The body's x axis points along world y after its 90 degree turn about z.
  check_vector(b["pos"], {0.1, 0.25, 0.5}, 1e-15);
  std::string error;
  const auto sim = sg::mjcmp::load_mujoco_file(sg::test::write_mjcf("geom_frame", xml), &error);
  REQUIRE(sim);
  mj_kinematics(sim->m, sim->d);
  CHECK(orientation_error(b["euler"], sim->d->geom_xmat) < 1e-13);
}

TEST_CASE("contype and conaffinity: the plane and body pairs") {
  // The floor takes part only if it collides with the bodies; bodies that only collide with the floor.
  const json k = imported("contype", mjcf_model(R"(
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1" contype="2" conaffinity="1"/></body>
    <body pos="1 0 1"><freejoint/><geom type="sphere" size="0.1" contype="2" conaffinity="1"/></body>)"));
  CHECK(k["model"]["plane"]["enabled"] == true);
  CHECK(k["model"]["collide_bodies"] == false);
  const json off = imported("no_floor_contact", mjcf_model(R"(
    <geom name="floor" type="plane" size="1 1 0.1" contype="0" conaffinity="0"/>
    <body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>)"));
  CHECK(off["model"]["plane"]["enabled"] == false);
}

TEST_CASE("an <inertial> that equals the geom's is accepted, and the mass comes from it") {
  // Sphere r = 0.1, mass 1: I = 0.4 m r^2 = 0.004.
  const json k = imported("inertial", mjcf_model(R"(
    <body pos="0 0 1">
      <freejoint/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.004 0.004 0.004"/>
      <geom type="sphere" size="0.1"/>
    </body>)"));
  CHECK(k["model"]["bodies"][0]["mass"] == 1.0);
}

TEST_CASE("billiards-like XML: balls, plane, friction, masses, contact classes and options") {
  const json k = imported("billiard_like_copy", [] {
    std::ifstream in(sg::test::source_path("tests/data/mjcf/billiard_like.xml"));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  const json& m = k["model"];
  check_vector(m["gravity"], {0, 0, -9.81});
  CHECK(m["plane"]["enabled"] == true);  // ball contype 7 against table conaffinity 2
  CHECK(m["plane"]["height"] == -0.015);
  check_vector(m["plane"]["friction"], {1, 0.005, 0.0001});  // the table keeps MuJoCo's default friction
  check_vector(m["plane"]["solref"], {0.01, 0.2});
  check_vector(m["plane"]["solimp"], {0.9, 0.95, 0.01, 0.5, 2});
  CHECK(m["collide_bodies"] == true);  // contype 7 against conaffinity 1
  REQUIRE(m["bodies"].size() == 2);
  const double x[2] = {-0.375, -0.2};
  for (int i = 0; i < 2; ++i) {
    const json& b = m["bodies"][i];
    CAPTURE(i);
    CHECK(b["shape"] == "sphere");
    check_vector(b["size"], {0.042, 0.042, 0.042});
    CHECK(b["mass"] == 0.17);
    check_vector(b["pos"], {x[i], 0, 0.1});
    check_vector(b["friction"], {0.2, 0.01, 0.01});
    check_vector(b["solref"], {0.01, 0.2});
    check_vector(b["solimp"], {0.9, 0.95, 0.01, 0.5, 2});
    CHECK(b["condim"] == 3);
  }
  CHECK(k["contact"]["mujoco"]["refsafe"] == false);
  CHECK(k["contact"]["mujoco"]["impratio"] == 1.0);
  CHECK(k["integrator"]["dt"] == 0.01);
}
