// MuJoCo's slider-crank transmission (mjTRN_SLIDERCRANK) on joint trees, with MuJoCo's own
// slider_crank.xml (libmujoco-samples): a forward crank (slider site on the world), a backward one (slider
// site on the crank's child) and a "broken" one whose rod is too short to reach its slider's axis, all
// position actuators. Stepped against mj_step; differentiated in the controls and crank lengths.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/mjcf/mjcf_test_util.hpp"
#include "tests/mjcf/mujoco_models.hpp"

namespace {

const char* const kSliderCrank = "/usr/share/mujoco/model/slider_crank/slider_crank.xml";

bool have_model() {
  if (std::filesystem::exists(kSliderCrank)) return true;
  std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (libmujoco-samples)\n", kSliderCrank);
  return false;
}

// Controls that drive each crank away from its start (ctrlrange is -0.1 .. 0.1).
const std::vector<std::string> kDriven = {"model.tree.actuators.0.ctrl=0.1",
                                          "model.tree.actuators.1.ctrl=-0.08",
                                          "model.tree.actuators.2.ctrl=0.06"};

// MuJoCo's det = (a'v)^2 + r^2 - v'v of actuator i at d's positions (mj_forward run): <= 0 when broken.
double crank_det(const mjModel* m, const mjData* d, int i) {
  const int crank = m->actuator_trnid[2 * i], slider = m->actuator_trnid[2 * i + 1];
  const double* a = d->site_xmat + 9 * slider;
  double v[3], av = 0.0, vv = 0.0;
  for (int k = 0; k < 3; ++k) v[k] = d->site_xpos[3 * crank + k] - d->site_xpos[3 * slider + k];
  for (int k = 0; k < 3; ++k) av += v[k] * a[3 * k + 2], vv += v[k] * v[k];
  const double r = m->actuator_cranklength[i];
  return av * av + r * r - vv;
}

}  // namespace

TEST_CASE(
    "slider-crank: MuJoCo's slider_crank.xml imports and follows mj_step, broken crank too (tol 1e-9)") {
  if (!have_model()) return;
  const sg::Problem p = sg::test::load_scene(kSliderCrank, kDriven);
  REQUIRE(p.data.tree.act.nu == 3);
  for (int i = 0; i < 3; ++i)
    CHECK(p.data.tree.act.actuator[i].trntype == sg::ActuatorTransmission::kSliderCrank);
  CHECK(p.data.tree.act.actuator[0].cranklength == 0.08);
  // Both branches of MuJoCo's length are compared, and the switch between them: the first two cranks reach
  // their axes over the whole run, the third is broken at the start and reaches its axis later.
  std::string error;
  sg::test::ModelPtr m = sg::test::load_xml_file(kSliderCrank, error);
  REQUIRE(m);
  sg::test::DataPtr d(mj_makeData(m.get()));
  d->ctrl[0] = 0.1, d->ctrl[1] = -0.08, d->ctrl[2] = 0.06;
  mj_forward(m.get(), d.get());
  CHECK(crank_det(m.get(), d.get(), 2) < 0.0);
  double least = 1e300, broken_most = -1e300;
  for (int s = 0; s < 1000; ++s) {
    mj_step(m.get(), d.get());
    mj_forward(m.get(), d.get());
    least = std::min({least, crank_det(m.get(), d.get(), 0), crank_det(m.get(), d.get(), 1)});
    broken_most = std::max(broken_most, crank_det(m.get(), d.get(), 2));
  }
  MESSAGE("det over the run: the reaching cranks' least " << least << ", the broken one's largest "
                                                          << broken_most);
  CHECK(least > 0.0);
  CHECK(broken_most > 0.0);
  sg::test::check_follows_mj_step("slider_crank", p, kSliderCrank, 1000, 0.002, 0.1);
  // The comparison sees each crank's length and the slider sites' axes act.
  sg::test::check_each_matters(
      kSliderCrank, kDriven,
      {"model.tree.actuators.0.cranklength=0.1", "model.tree.actuators.1.cranklength=0.08",
       "model.tree.actuators.2.cranklength=0.2", "model.tree.sites.0.quat=[1,0,0,0]"},
      1000, 0.002);
}

TEST_CASE("slider-crank: forward mode equals reverse mode and FD in the controls and crank lengths") {
  if (!have_model()) return;
  // Controls inside ctrlrange: at a bound the clamp's kink would split central FD.
  const std::vector<std::string> sets =
      sg::test::with_sets(kDriven, {"model.tree.actuators.0.ctrl=0.09", "integrator.steps=300",
                                    R"(loss.terms=[{"quantity": "site", "site": "cranksite", "axis": "y"},
                               {"quantity": "site", "site": "cranksite2", "axis": "x"},
                               {"quantity": "site", "site": "cranksite3", "axis": "y"}])"});
  const sg::Problem p = sg::test::load_scene(kSliderCrank, sets);
  sg::test::check_reverse_and_fd(p,
                                 {"model.tree.actuators.0.ctrl", "model.tree.actuators.1.ctrl",
                                  "model.tree.actuators.2.ctrl", "model.tree.actuators.0.cranklength",
                                  "model.tree.actuators.1.cranklength", "model.tree.actuators.2.cranklength"},
                                 1e-9, 1e-5);
}

TEST_CASE("slider-crank: bad site names and a missing slider site are errors at their keys") {
  const std::string xml = R"(<mujoco><worldbody>
    <site name="rail" pos="0 -0.1 0" zaxis="1 0 0"/>
    <body><joint damping="0.1"/><geom type="capsule" size="0.01" fromto="0 0 0 0.2 0 0"/>
      <site name="pin" pos="0.1 0 0"/></body>
  </worldbody><actuator>
    <position cranksite="pin" slidersite="rail" cranklength="0.08" kp="30"/>
  </actuator></mujoco>)";
  const std::string file = sg::test::write_mjcf("slider_crank_small", xml);
  const nlohmann::json keys = sg::test::imported("slider_crank_small", xml);
  const nlohmann::json& a = keys["model"]["tree"]["actuators"][0];
  CHECK(a["cranksite"] == "pin");
  CHECK(a["slidersite"] == "rail");
  CHECK(a["cranklength"] == 0.08);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"model.tree.actuators.0.cranksite=nowhere",
       "model.tree.actuators.0.cranksite: no site named 'nowhere'"},
      {"model.tree.actuators.0.slidersite=",
       "model.tree.actuators.0.slidersite: a slider-crank needs its slider"},
      {"model.tree.actuators.0.slidersite=gone", "model.tree.actuators.0.slidersite: no site named 'gone'"},
      {"model.tree.actuators.0.cranklength=0", "model.tree.actuators.0.cranklength"},
      {"model.tree.sites.0.quat=[0,0,0,0]", "model.tree.sites.0.quat: a zero quaternion"}};
  sg::test::check_load_errors(file, cases);
}
