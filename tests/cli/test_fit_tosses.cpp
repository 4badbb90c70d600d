// `softgrad fit --tosses`: a fit to measured tosses through the real binary (the ContactNets cube of
// ../shared/data/contactnets), and its refusals of bad files, selections and options, with nothing written.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using sg::test::read_json;
using sg::test::run_softgrad;
using sg::test::scene;

namespace {

std::string temp(const std::string& name) {
  return sg::test::binary_dir() + "/tosses_" + name;
}

const std::string kTosses = sg::test::source_dir() + "/../shared/data/contactnets/tosses.csv";

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp(name);
  std::ofstream(path) << text;
  return path;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("fit --tosses fits the cube's half side to measured tosses and reports the trajectory error") {
  if (!std::filesystem::exists(kTosses)) {
    MESSAGE("no measured tosses at " << kTosses << ": left out");
    return;
  }
  const std::string out = temp("fit.json");
  std::remove(out.c_str());
  // MJX with CFD from a 90 mm cube: Adam with DiffMJX's settings, 20 steps on 20 tosses.
  const auto r =
      run_softgrad("fit " + scene("contactnets_cube.json") + " --tosses " + kTosses +
                   " --toss 0-29 --eval-tosses 0-9 --wrt model.bodies.0.size"
                   " --set model.bodies.0.size=[0.045,0.045,0.045] --set contact.cfd.enabled=true"
                   " --method adam --beta1 0.5 --beta2 0.9 --adam-eps 1e-6 --lr 0.02 --lr-final 0.02"
                   " --steps 20 --out " +
                   out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.output, "segments of 5 frames"));
  CHECK(has(r.output, "trajectory error before"));
  CHECK(has(r.output, "trajectory error after"));
  const auto j = read_json(out);
  CHECK(j["tosses"]["segment_frames"] == 5);
  CHECK(j["tosses"]["segments"].get<long>() > 100);
  CHECK(j["tosses"]["evaluated"].size() >= 5);
  const auto& path = j["path"];
  REQUIRE(path.size() == 21);
  // The error falls and the half side grows toward the measured 0.0524.
  CHECK(path.back()["loss"].get<double>() < 0.8 * path.front()["loss"].get<double>());
  const double fitted = path.back()["values"][0].get<double>();
  CHECK(fitted > 0.048);
  CHECK(fitted < 0.056);
  const double before = j["trajectory_error"]["before"]["mean_abs"].get<double>();
  const double after = j["trajectory_error"]["after"]["mean_abs"].get<double>();
  // Whole tosses are chaotic once a corner lands (DiffMJX's Suppl. C.2): the size alone need not lower
  // their error (measured 0.0742 before, 0.0759 after here); both are finite and of the data's scale.
  CHECK(std::isfinite(before));
  CHECK(std::isfinite(after));
  CHECK(after < 0.5);
}

TEST_CASE("fit --tosses refuses bad files, selections and options with the reason and writes nothing") {
  const std::string out = temp("refused.json");
  std::remove(out.c_str());
  const std::string base =
      "fit " + scene("contactnets_cube.json") + " --wrt model.bodies.0.size --out " + out;
  const std::string header = "toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
  const std::string good = write_file("good.csv", header + "1,0,0,0,0.2,1,0,0,0,0,0,0,0,0,0\n" +
                                                      "1,0.00675675676,0,0,0.2,1,0,0,0,0,0,0,0,0,0\n");
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {" --tosses /nonexistent/t.csv", "/nonexistent/t.csv: cannot read the tosses"},
      {" --tosses " + write_file("header.csv", "t,body,x,y,z\n"), "header.csv:1: expected the header"},
      {" --tosses " + write_file("quat.csv", header + "1,0,0,0,0.2,0.9,0,0,0,0,0,0,0,0,0\n"),
       "quat.csv:2: columns 6-9 (qw,qx,qy,qz): not a unit quaternion"},
      {" --tosses " + write_file("cell.csv", header + "1,0,0,0,0.2,1,0,0,0,0,0,x,0,0,0\n"),
       "cell.csv:2: column 12 (vz): expected a finite number"},
      {" --tosses " + good + " --toss 7", "--toss: toss 7: not in"},
      {" --tosses " + good + " --eval-tosses 2-5", "--eval-tosses: no toss numbered 2-5"},
      {" --tosses " + good + " --set integrator.dt=0.01", "integrator.dt: 0.010000 s, but the frames of"},
      {" --tosses " + good + " --profile", "--profile and --bootstrap do not apply"},
      {" --tosses " + good, "no segment of 5 frames"},
      {" --tosses " + good + " --segment 2 --wrt model.bodies.0.pos.0",
       "model.bodies.0.pos.0: fitted, so it cannot also be set from the data"},
  };
  for (const Case& c : cases) {
    const auto r = run_softgrad(base + c.args);
    CAPTURE(c.args);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(has(r.output, c.message));
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

namespace {

// The trajectory error before any fit (--steps 0) of tosses 30-39 from a 5-frame segment fit's setup, with
// the given extra options.
double error_of_tosses_30_39(const std::string& name, const std::string& extra) {
  const std::string out = temp(name);
  std::remove(out.c_str());
  const auto r =
      run_softgrad("fit " + scene("contactnets_cube.json") + " --tosses " + kTosses +
                   " --toss 0 --eval-tosses 30-39 --wrt model.bodies.0.size --steps 0 --out " + out + extra);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const double e = read_json(out)["trajectory_error"]["before"]["mean_abs"].get<double>();
  REQUIRE(std::isfinite(e));
  return e;
}

}  // namespace

TEST_CASE("the scene's 4 solver iterations: a tree stops at the cap with the free bodies' last iterate") {
  if (!std::filesystem::exists(kTosses)) {
    MESSAGE("no measured tosses at " << kTosses << ": left out");
    return;
  }
  // contactnets_cube.json keeps DiffMJX's 4 Newton iterations; where three of the cube's corners touch
  // (tosses 31 and 38) they do not converge. Both engines must stop there with the same iterate, from the
  // same active-set guess: before the tree honoured the cap the two parted by 6 mm on toss 31 (0.11171 vs
  // 0.11162 over tosses 0-39).
  const double tree = error_of_tosses_30_39("cap_tree.json", "");
  const double free = error_of_tosses_30_39("cap_free.json", " --set model.run_as=free_bodies");
  const double converged = error_of_tosses_30_39("cap_100.json", " --set contact.mujoco.iterations=100");
  // One model's two codes: rounding apart over 10 whole tosses (Euler steps, no adaptive decisions).
  CHECK(std::fabs(tree - free) <= 1e-9 * free);
  // The cap does bite on these tosses, so the agreement above is the capped iterate's.
  CHECK(std::fabs(tree - converged) >= 1e-5 * converged);
}
