// `softgrad gradient`, `simulate --positions` and `softgrad fit` through the real binary: the printed and
// written results, and clear refusals of bad parameters and data.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using sg::test::read_json;
using sg::test::run_softgrad;
using sg::test::scene;

namespace {

std::string temp(const std::string& name) {
  return sg::test::binary_dir() + "/identify_" + name;
}

}  // namespace

TEST_CASE("gradient prints and writes forward and finite-difference derivatives of every parameter") {
  const std::string out = temp("gradient.json");
  const auto r =
      run_softgrad("gradient " + scene("toss_box_diffmjx.json") + " --wrt all --mode both --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("model.bodies.0.vel.2") != std::string::npos);
  const auto j = read_json(out);
  CHECK(j["mode"] == "both");
  REQUIRE(j["parameters"].size() >= 40);
  for (const auto& row : j["parameters"]) {
    if (row["path"] != "model.bodies.0.vel.2") continue;
    // The sweep's own derivative at v_z = -2 (forward 0.5765, FD of the same simulation 0.5763).
    CHECK(row["forward"].get<double>() == doctest::Approx(row["fd"].get<double>()).epsilon(2e-3));
  }
}

TEST_CASE("gradient --mode reverse --threads: segments recorded on several threads, the same numbers") {
  const std::string one = temp("reverse1.json"), two = temp("reverse3.json");
  const std::string base = "gradient " + scene("billiards.json") + " --wrt all --mode reverse --out ";
  const auto r1 = run_softgrad(base + one + " --threads 1");
  const auto r3 = run_softgrad(base + two + " --threads 3");
  INFO(r1.output, r3.output);
  REQUIRE(r1.exit_code == 0);
  REQUIRE(r3.exit_code == 0);
  CHECK(r3.output.find("segments on 3 threads") != std::string::npos);
  const auto a = read_json(one), b = read_json(two);
  CHECK(a["loss"] == b["loss"]);
  REQUIRE(a["parameters"].size() == b["parameters"].size());
  for (std::size_t k = 0; k < a["parameters"].size(); ++k)
    CHECK(a["parameters"][k]["reverse"] == b["parameters"][k]["reverse"]);  // bit for bit
  CHECK(run_softgrad(base + two + " --threads -1").exit_code == 2);
}

TEST_CASE("gradient --mode backsolve: the continuous adjoint, with its failure on damped contact shown") {
  const std::string out = temp("backsolve.json");
  const std::string toy =
      scene("toy_point_mass.json") +
      " --set integrator.type=tsit5 --set integrator.rtol=1e-10 --set integrator.atol=1e-10"
      " --set contact.penalty.c=0 --value 0.5 --wrt model.particles.0.pos.2";
  const auto r = run_softgrad("gradient " + toy + " --mode all --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("steps backwards") != std::string::npos);
  CHECK(r.output.find("warning") == std::string::npos);
  const auto j = read_json(out);
  const auto& row = j["parameters"][0];
  CHECK(row["backsolve"].get<double>() == doctest::Approx(row["forward"].get<double>()).epsilon(1e-6));

  const auto box = run_softgrad("gradient " + scene("toss_box_diffmjx.json") +
                                " --wrt model.bodies.0.vel.2 --mode backsolve");
  INFO(box.output);
  CHECK(box.exit_code == 0);  // a finite gradient; the warning says why not to trust it
  CHECK(box.output.find("warning: backsolve: the state integrated backwards ends") != std::string::npos);

  const auto euler = run_softgrad("gradient " + scene("toy_point_mass.json") +
                                  " --wrt model.particles.0.pos.2 --mode backsolve");
  CHECK(euler.exit_code != 0);
  CHECK(euler.output.find("adaptive integrator") != std::string::npos);
}

TEST_CASE("fit over the scene's rollouts: synthetic, one measured file per run, or the scene's run alone") {
  const auto r = run_softgrad("fit " + scene("identify_cube_rollouts.json"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("303 samples") != std::string::npos);  // 101 output times of each of three runs
  CHECK(r.output.find("and 2 more rollouts") != std::string::npos);
  // Measured files: the scene's run and each rollout's, as simulate writes them with the rollout's number
  // set (the throw speed is the scene's sweep parameter: --set gives simulate its value).
  const std::string s = scene("identify_cube_rollouts.json");
  const std::string run0 = temp("rollout0.csv"), run1 = temp("rollout1.csv"), run2 = temp("rollout2.csv");
  REQUIRE(run_softgrad("simulate " + s + " --positions " + run0).exit_code == 0);
  REQUIRE(run_softgrad("simulate " + s + " --set model.bodies.0.vel.0=1.5 --positions " + run1).exit_code ==
          0);
  REQUIRE(run_softgrad("simulate " + s + " --set model.bodies.0.euler.1=-10 --positions " + run2).exit_code ==
          0);
  const std::string out = temp("rollouts_fit.json");
  const auto measured =
      run_softgrad("fit " + s + " --data " + run0 + " --data " + run1 + " --data " + run2 + " --out " + out);
  INFO(measured.output);
  REQUIRE(measured.exit_code == 0);
  CHECK(measured.output.find("303 samples") != std::string::npos);
  const auto j = read_json(out);
  CHECK(j["fitted"][0].get<double>() == doctest::Approx(0.6).epsilon(1e-4));   // friction
  CHECK(j["fitted"][1].get<double>() == doctest::Approx(0.02).epsilon(1e-4));  // solref
  CHECK(j["fitted"][2].get<double>() == doctest::Approx(0.7).epsilon(1e-3));
  const auto alone = run_softgrad("fit " + s + " --data " + run0);
  CHECK(alone.exit_code == 0);
  CHECK(alone.output.find("without its 2 identify.rollouts") != std::string::npos);
  CHECK(alone.output.find("101 samples") != std::string::npos);
  const auto fitted_rollout = run_softgrad("fit " + s + " --wrt model.bodies.0.vel.0");
  CHECK(fitted_rollout.exit_code == 2);
  CHECK(fitted_rollout.output.find("model.bodies.0.vel.0: set by identify.rollouts.0") != std::string::npos);
  const auto two = run_softgrad("fit " + s + " --data " + run0 + " --data " + run1);
  CHECK(two.exit_code == 2);
  CHECK(two.output.find("--data: 2 files for 3 runs") != std::string::npos);
}

TEST_CASE("gradient refuses unknown, repeated and derived parameters") {
  const auto typo =
      run_softgrad("gradient " + scene("toss_box_diffmjx.json") + " --wrt model.bodies.0.vel.7");
  CHECK(typo.exit_code == 2);
  CHECK(typo.output.find("model.bodies.0.vel.7: not a differentiable number") != std::string::npos);
  const auto mass = run_softgrad("gradient " + scene("toss_box_diffmjx.json") + " --wrt model.bodies.0.mass");
  CHECK(mass.exit_code == 2);
  CHECK(mass.output.find("set a mass") != std::string::npos);
  CHECK(run_softgrad("gradient " + scene("toss_box_diffmjx.json") + " --wrt all --mode backward").exit_code ==
        2);
  CHECK(run_softgrad("gradient " + scene("toss_box_diffmjx.json") + " --wrt all --fd-eps -1").exit_code == 2);
}

TEST_CASE("fit recovers the cube's parameters from the positions simulate writes") {
  const std::string data = temp("truth.csv"), out = temp("fit.json");
  const auto sim = run_softgrad("simulate " + scene("identify_cube_toss.json") + " --positions " + data);
  INFO(sim.output);
  REQUIRE(sim.exit_code == 0);
  const auto r = run_softgrad("fit " + scene("identify_cube_toss.json") + " --data " + data +
                              " --wrt model.bodies.0.friction.0 --wrt model.bodies.0.solref.0"
                              " --set model.bodies.0.friction.0=0.45 --set model.bodies.0.solref=[0.025,0.7]"
                              " --out " +
                              out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  CHECK(j["fitted"][0].get<double>() == doctest::Approx(0.6).epsilon(1e-3));
  CHECK(j["fitted"][1].get<double>() == doctest::Approx(0.02).epsilon(1e-3));
  CHECK(j["path"].back()["loss"].get<double>() < 1e-12);
}

TEST_CASE("fit --bound keeps a number in range, the result has standard errors, bad bounds are refused") {
  const std::string out = temp("bound.json");
  const std::string fit = "fit " + scene("identify_cube_toss.json") + " --set identify.noise=0.001";
  const auto r = run_softgrad(fit + " --bound model.bodies.0.friction.0=:0.55 --out " + out);
  INFO(r.output);
  // The truth (0.6) lies past the bound: the friction the fit reports is the bound's, not a measurement, so
  // the fit says so and exits 1 (the result is still written).
  REQUIRE(r.exit_code == 1);
  CHECK(r.output.find("std. error") != std::string::npos);
  CHECK(r.output.find("(at its bound)") != std::string::npos);
  CHECK(r.output.find("not identified: model.bodies.0.friction.0 (on its bound") != std::string::npos);
  CHECK(r.output.find("residual standard deviation") != std::string::npos);
  const auto j = read_json(out);
  CHECK(j["fitted"][0].get<double>() == 0.55);
  CHECK(j["at_bound"][0].get<bool>());
  CHECK(j["status"].get<std::string>().rfind("not identified: model.bodies.0.friction.0", 0) == 0);
  CHECK(j["not_identified"][1] == "");  // the others are identified
  REQUIRE(j["std_error"].size() == 4);
  for (const auto& e : j["std_error"]) CHECK(e.get<double>() > 0.0);
  CHECK(j["residual_sigma"].get<double>() == doctest::Approx(0.001).epsilon(0.2));
  for (const std::string& bad :
       {std::string("model.bodies.0.friction.0=1:0.5"), std::string("friction=0:1"),
        std::string("model.bodies.0.friction.0=a:1"), std::string("model.bodies.0.friction.0"),
        std::string("model.bodies.0.friction.0=0.5:0.9")}) {
    CAPTURE(bad);
    const auto refused = run_softgrad(fit + " --bound " + bad);
    CHECK(refused.exit_code == 2);
    CHECK(refused.output.find(bad.substr(0, bad.find('='))) != std::string::npos);
  }
}

TEST_CASE("fit --profile: intervals around each fitted number, written and drawn, bad levels refused") {
  const std::string out = temp("profile.json"), svg = temp("profile.svg");
  const std::string fit = "fit " + scene("identify_cube_toss.json") + " --set identify.noise=0.001";
  const auto r = run_softgrad(fit + " --profile --level 0.95 --profile-svg " + svg + " --out " + out);
  INFO(r.output);
  // At 1 mm the damping ratio's standard error (0.66) exceeds its fitted value (0.53): the fit flags it as
  // not identified and exits 1; the profile is still computed and written, and shows how wide it is.
  REQUIRE(r.exit_code == 1);
  CHECK(r.output.find("not identified: model.bodies.0.solref.1 (std. error") != std::string::npos);
  CHECK(r.output.find("profile-likelihood intervals at 95.0%") != std::string::npos);
  const auto j = read_json(out);
  const auto& profile = j["profile"];
  CHECK(profile["status"] == "ok");
  CHECK(profile["threshold"].get<double>() == doctest::Approx(3.8415).epsilon(1e-4));
  CHECK(profile["restarts"].get<int>() == 0);  // the fit had converged
  REQUIRE(profile["parameters"].size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    const auto& p = profile["parameters"][k];
    const double fitted = j["fitted"][k].get<double>();
    CHECK(p["path"] == j["parameters"][k]);
    CHECK(p["lower"].get<double>() < fitted);
    CHECK(p["upper"].get<double>() > fitted);
    CHECK(p["lower"].get<double>() > 0.0);  // all four are positive numbers, and stay so
    // Friction and the throw speed are nearly linear: both ends crossed. The damping ratio's 95% interval
    // reaches down towards 0 without crossing ("not reached").
    if (k == 0 || k == 3) CHECK(p["lower_end"] == "crossed");
    if (k == 2) CHECK(p["lower_end"] == "not reached");
    CHECK(p["points"].size() >= 3);
  }
  std::ifstream drawn(svg);
  const std::string text((std::istreambuf_iterator<char>(drawn)), std::istreambuf_iterator<char>());
  CHECK(text.find("95.0% threshold") != std::string::npos);
  for (const char* level : {"0", "1", "nan", "-0.5"}) {
    CAPTURE(level);
    const auto refused = run_softgrad(fit + " --profile --level " + std::string(level));
    CHECK(refused.exit_code == 2);
    CHECK(refused.output.find("--level") != std::string::npos);
  }
}

TEST_CASE(
    "fit --bootstrap: intervals from refitted draws, written as JSON, CSV and SVG, bad counts refused") {
  const std::string out = temp("bootstrap.json"), csv = temp("bootstrap.csv"), svg = temp("bootstrap.svg");
  const std::string fit = "fit " + scene("identify_cube_toss.json") +
                          " --set identify.noise=0.001 --wrt model.bodies.0.friction.0 --wrt "
                          "model.bodies.0.solref.0 --print-every 1000";
  const auto r = run_softgrad(fit + " --bootstrap 12 --bootstrap-csv " + csv + " --bootstrap-svg " + svg +
                              " --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("bootstrap intervals at 68.3% (12 of 12 draws refitted") != std::string::npos);
  CHECK(r.output.find("rough quantiles") != std::string::npos);  // 12 draws: said so
  CHECK(r.output.find("each fitted again from the fit's start") != std::string::npos);
  const auto j = read_json(out);
  const auto& b = j["bootstrap"];
  CHECK(b["status"] == "ok");
  CHECK(b["from"] == "start");
  CHECK(b["requested"].get<int>() == 12);
  REQUIRE(b["draws"].size() == 12);
  REQUIRE(b["parameters"].size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    CAPTURE(k);
    const auto& p = b["parameters"][k];
    const double fitted = j["fitted"][k].get<double>();
    CHECK(p["path"] == j["parameters"][k]);
    CHECK(p["lower"].get<double>() < fitted);
    CHECK(p["upper"].get<double>() > fitted);
    CHECK(p["spread"].get<double>() > 0.0);
  }
  std::ifstream drawn(csv);
  std::string header, line;
  std::getline(drawn, header);
  CHECK(header == "draw,model.bodies.0.friction.0,model.bodies.0.solref.0");
  int lines = 0;
  while (std::getline(drawn, line)) ++lines;
  CHECK(lines == 12);
  std::ifstream drawn_svg(svg);
  const std::string text((std::istreambuf_iterator<char>(drawn_svg)), std::istreambuf_iterator<char>());
  CHECK(text.find("12 bootstrap draws") != std::string::npos);  // the histograms
  CHECK(text.find("correlated draws") != std::string::npos);    // and two numbers' draws together
  for (const char* bad : {"-1", "1", "1.5", "x", "20000"}) {
    CAPTURE(bad);
    const auto refused = run_softgrad(fit + " --bootstrap " + std::string(bad));
    CHECK(refused.exit_code == 2);
    CHECK(refused.output.find("--bootstrap") != std::string::npos);
  }
  const auto from_fit = run_softgrad(fit + " --bootstrap 2 --bootstrap-from fit");
  CHECK(from_fit.exit_code == 0);
  CHECK(from_fit.output.find("each fitted again from the fitted values") != std::string::npos);
  CHECK(run_softgrad(fit + " --bootstrap 2 --bootstrap-from there").exit_code == 2);
  const auto lonely = run_softgrad(fit + " --bootstrap-csv " + csv);
  CHECK(lonely.exit_code == 2);
  CHECK(lonely.output.find("--bootstrap N") != std::string::npos);
  const auto one = run_softgrad(fit + " --set identify.bootstrap=1");
  CHECK(one.exit_code == 2);
  CHECK(one.output.find("identify.bootstrap") != std::string::npos);
}

TEST_CASE("fit without --data and --wrt runs the scene's identify section and draws it") {
  const std::string out = temp("identify.json"), svg = temp("identify.svg");
  const auto r = run_softgrad("fit " + scene("identify_cube_toss.json") + " --out " + out + " --svg " + svg);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("rel. error") != std::string::npos);  // the truth is known: errors against it
  const auto j = read_json(out);
  REQUIRE(j["parameters"].size() == 4);
  CHECK(j["start"][0].get<double>() == 0.4);  // identify.parameters.0.start, not the scene's 0.6
  CHECK(j["fitted"][0].get<double>() == doctest::Approx(0.6).epsilon(1e-4));
  CHECK(j["fitted"][3].get<double>() == doctest::Approx(1.5).epsilon(1e-4));
  std::ifstream drawn(svg);
  const std::string text((std::istreambuf_iterator<char>(drawn)), std::istreambuf_iterator<char>());
  CHECK(text.find("relative error against the truth") != std::string::npos);
  // A scene without an identify section needs --wrt.
  const auto none = run_softgrad("fit " + scene("toss_box_diffmjx.json"));
  CHECK(none.exit_code == 2);
  CHECK(none.output.find("identify.parameters") != std::string::npos);
}

TEST_CASE("fit refuses bad data files with the file and line") {
  const std::string bad = temp("bad.csv");
  std::ofstream(bad) << "t,body,x,y,z\n0,0,0,0,0.1\n0.013,0,0,0,0.1\n";
  const auto r = run_softgrad("fit " + scene("identify_cube_toss.json") + " --data " + bad +
                              " --wrt model.bodies.0.friction.0");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(bad + ":3: t = 0.013 is not on the output grid") != std::string::npos);
  const auto missing = run_softgrad("fit " + scene("identify_cube_toss.json") + " --data " +
                                    temp("none.csv") + " --wrt model.bodies.0.friction.0");
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("cannot read data file") != std::string::npos);
}

TEST_CASE("sweep2d writes the grid's maps and refuses bad axes") {
  const std::string out = temp("grid.json"), svg = temp("grid.svg");
  const auto r = run_softgrad("sweep2d " + scene("toy_point_mass.json") +
                              " --set integrator.type=tsit5 --x model.particles.0.pos.2 0.2 2 5"
                              " --y model.particles.0.vel.2 -2 -0.5 3 --out " +
                              out + " --svg " + svg);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  REQUIRE(j["loss"].size() == 3);
  REQUIRE(j["loss"][0].size() == 5);
  CHECK(j["x"]["values"][4].get<double>() == doctest::Approx(2.0));
  // z0 = 2, v = -2 ends in the penalty contact, where the continuous ODE's derivative is 0.80035 (issue 8).
  CHECK(j["grad_x"][0][4].get<double>() == doctest::Approx(0.80035).epsilon(1e-4));
  CHECK(run_softgrad("sweep2d " + scene("toy_point_mass.json") +
                     " --x model.particles.0.pos.2 0 1 1 --y "
                     "model.particles.0.vel.2 0 1 3")
            .exit_code == 2);
  CHECK(run_softgrad("sweep2d " + scene("toy_point_mass.json") +
                     " --x nope 0 1 3 --y model.particles.0.vel.2 0 "
                     "1 3")
            .exit_code == 2);
}

TEST_CASE("fit flags a number the data do not identify instead of reporting it as ok") {
  // The cube's half-size along y barely changes its sliding positions: Levenberg-Marquardt either sends it
  // away (to 1.58e10 m from 0.06 on the free bodies' own code: "ran to") or cannot lower the loss from the
  // start, with a standard error of 4.5e9 m (free bodies run as a tree, the default). Neither is a
  // measurement: "NOT IDENTIFIED", status and exit 1.
  const std::string out = temp("not_identified.json");
  const auto r =
      run_softgrad("fit " + scene("identify_cube_toss.json") +
                   " --set 'identify.parameters=[{\"path\":\"model.bodies.0.size.1\",\"start\":0.06}]'"
                   " --set identify.noise=0.001 --out " +
                   out);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("NOT IDENTIFIED: ") != std::string::npos);
  CHECK(r.output.find("not identified: model.bodies.0.size.1 (") != std::string::npos);
  const auto j = read_json(out);
  CHECK(j["status"].get<std::string>().rfind("not identified: model.bodies.0.size.1", 0) == 0);
  const std::string why = j["not_identified"][0].get<std::string>();
  CHECK((why.rfind("ran to", 0) == 0 || why.rfind("std. error", 0) == 0));
}
