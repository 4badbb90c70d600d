// The commands' output contracts: sweep JSON keys, simulate's trajectory keys, validate's ok.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using sg::test::read_json;
using sg::test::run_softgrad;
using sg::test::scene;

TEST_CASE("sweep writes the result contract, a CSV and an SVG") {
  const std::string out = sg::test::binary_dir() + "/sweep_contract";
  const auto r = run_softgrad("sweep " + scene("toy_point_mass.json") + " --set sweep.points=50 --out " +
                              out + ".json --csv " + out + ".csv --svg " + out + ".svg --threads 2");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out + ".json");
  for (const char* key : {"values", "loss", "grad", "grad_fd", "status", "stats", "config"})
    CHECK(j.contains(key));
  for (const char* key : {"points", "seconds", "grad_rel_err_median", "sign_agreement", "steps_total",
                          "rejected_total", "events_total"})
    CHECK(j["stats"].contains(key));
  CHECK(j["values"].size() == 50);
  CHECK(j["stats"]["points"] == 50);
  CHECK(j["stats"]["steps_total"] == 50 * 20);
  CHECK(j["config"]["sweep"]["points"] == 50);            // the resolved scene after overrides
  CHECK(j["config"]["integrator"]["max_steps"] == 4096);  // defaults filled in
  std::ifstream svg(out + ".svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("</svg>") != std::string::npos);
}

TEST_CASE("sweep with a tight reference writes it, names it and compares AD against it") {
  const std::string out = sg::test::binary_dir() + "/sweep_reference";
  const auto r = run_softgrad("sweep " + scene("toy_point_mass.json") +
                              " --set integrator.type=tsit5 --set sweep.points=20"
                              " --set gradient.reference=fd_tight --out " +
                              out + ".json --csv " + out + ".csv --svg " + out + ".svg");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("median |AD-fd_tight|/max") != std::string::npos);
  CHECK(r.output.find("reference: FD, tight (rtol 1e-10), eps 1e-06") != std::string::npos);
  const auto j = read_json(out + ".json");
  REQUIRE(j.contains("grad_ref"));
  CHECK(j["grad_ref"].size() == 20);
  CHECK(j["reference"]["name"] == "fd_tight");
  CHECK(j["reference"]["label"] == "FD, tight (rtol 1e-10), eps 1e-06");
  CHECK(j["stats"]["reference"] == "fd_tight");
  std::ifstream csv(out + ".csv");
  std::string header;
  std::getline(csv, header);
  CHECK(header == "value,loss,grad,grad_fd,grad_ref,status");
  std::ifstream svg(out + ".svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  CHECK(text.find("reference: FD, tight (rtol 1e-10)") != std::string::npos);
  CHECK(text.find("|AD - reference|") != std::string::npos);
  // The default reference adds nothing to the contract but its name in the stats.
  const auto plain = run_softgrad("sweep " + scene("toy_point_mass.json") + " --set sweep.points=5 --out " +
                                  out + "_fd.json");
  REQUIRE(plain.exit_code == 0);
  const auto jp = read_json(out + "_fd.json");
  CHECK(!jp.contains("grad_ref"));
  CHECK(jp["stats"]["reference"] == "fd");
}

TEST_CASE("simulate writes one entry per output time and the accepted steps") {
  const std::string out = sg::test::binary_dir() + "/simulate_contract.json";
  const auto r = run_softgrad("simulate " + scene("toy_point_mass.json") +
                              " --set integrator.type=tsit5 --value 0.55 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  CHECK(j["t"].size() == 21);
  CHECK(j["q"].size() == 21);
  CHECK(j["v"].size() == 21);
  CHECK(j["dt"].size() > 20);  // the adaptive solver refines the contact
  double total = 0.0;
  for (double h : j["dt"]) total += h;
  CHECK(total == doctest::Approx(2.0).epsilon(1e-12));
  // The contact's start and end were located (integrator.events, on by default for adaptive solvers).
  REQUIRE(j["events"].size() == 2);
  CHECK(j["events"][0]["kind"] == "onset");
  CHECK(j["events"][1]["kind"] == "separation");
  CHECK(j["events"][0]["t"].get<double>() == doctest::Approx(0.55).epsilon(1e-9));  // q0 = 0.55, v = -1
  CHECK(j["loss"].is_number());
  CHECK(j["grad"].is_number());
}

TEST_CASE("simulate names the plane -1 in a free body's events, run as a tree or on its own code") {
  // The tree names the plane by its geom (after the bodies'); the output keeps the README's -1.
  for (const std::string run_as : {"tree", "free_bodies"}) {
    CAPTURE(run_as);
    const std::string out = sg::test::binary_dir() + "/simulate_plane_id.json";
    const auto r =
        run_softgrad("simulate " + scene("toss_sphere_diffmjx.json") +
                     " --set model.bodies.0.vel=[0,0,0] --set model.run_as=" + run_as + " --out " + out);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto j = read_json(out);
    REQUIRE(j["events"].size() > 0);
    CHECK(j["events"][0]["kind"] == "onset");
    CHECK(std::min(j["events"][0]["a"].get<int>(), j["events"][0]["b"].get<int>()) == -1);
    CHECK(std::max(j["events"][0]["a"].get<int>(), j["events"][0]["b"].get<int>()) == 0);
  }
}

TEST_CASE("validate accepts every shipped scene") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(sg::test::source_dir() + "/scenes")) {
    if (entry.path().extension() != ".json") continue;
    const auto r = run_softgrad("validate " + entry.path().string());
    INFO(r.output);
    ++count;
#ifndef SOFTGRAD_HAVE_MJCF
    // Without libmujoco an MJCF scene cannot load, and says why.
    if (read_json(entry.path().string())["model"].value("type", "") == "mjcf") {
      CHECK(r.exit_code == 2);
      CHECK(r.output.find("MJCF import needs libmujoco (libmujoco-dev)") != std::string::npos);
      continue;
    }
#endif
    CHECK(r.exit_code == 0);
  }
  CHECK(count >= 15);
}

TEST_CASE("bench --quick prints every integrator row and the sweep time") {
  const auto r = run_softgrad("bench --quick");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const char* m :
       {"| euler |", "| moreau |", "| rk4 |", "| bosh3 |", "| dopri5 |", "| tsit5 |", "sweep, 2000 points"})
    CHECK(r.output.find(m) != std::string::npos);
}

TEST_CASE("optimize runs Adam on the sweep parameter and writes its path") {
  const std::string out = sg::test::binary_dir() + "/optimize_path.json";
  // The elastic toy with TOI: loss |q_N - 1| with q_N = 2 - q0, minimum at q0 = 1; start at 1.6.
  const auto r =
      run_softgrad("optimize " + scene("toy_elastic.json") +
                   " --set contact.elastic.toi=true --start 1.6 --steps 40 --lr 0.05 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out);
  REQUIRE(j["path"].size() == 41);
  const double first = j["path"][0]["loss"], last = j["path"][40]["loss"];
  CHECK(first == doctest::Approx(0.6).epsilon(1e-9));
  CHECK(last < 0.1);
  CHECK(run_softgrad("optimize " + scene("toy_elastic.json") + " --lr -1").exit_code == 2);
  CHECK(run_softgrad("optimize " + scene("toy_elastic.json") + " --start 1 --starts 2").exit_code == 2);
}

TEST_CASE("optimize --starts descends from starts spread over the sweep range, with the scene's settings") {
  const std::string out = sg::test::binary_dir() + "/optimize_paths.json";
  const auto r =
      run_softgrad("optimize " + scene("toy_elastic.json") +
                   " --set contact.elastic.toi=true --set optimize.steps=40 --starts 3 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("start 0.5") != std::string::npos);
  const auto j = read_json(out);
  CHECK(j["steps"] == 40);
  CHECK(j["lr"] == 0.1);
  REQUIRE(j["paths"].size() == 3);
  for (const auto& p : j["paths"]) {
    CHECK(p["status"] == "ok");
    REQUIRE(p["path"].size() == 41);
    CHECK(p["path"][40]["loss"].get<double>() < 0.02);
  }
}

TEST_CASE("sweep statistics leave out the points where AD and FD are both zero, and say so") {
  // Billiards without CFD: the 8-ball is missed over much of the range, where AD and FD are both exactly 0.
  const std::string out = sg::test::binary_dir() + "/sweep_both_zero";
  const auto r =
      run_softgrad("sweep " + scene("billiards.json") +
                   " --set contact.cfd.enabled=false --set sweep.points=40 --out " + out + ".json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto j = read_json(out + ".json");
  const auto& st = j["stats"];
  long zeros = 0;
  for (std::size_t i = 0; i < j["grad"].size(); ++i) zeros += j["grad"][i] == 0.0 && j["grad_fd"][i] == 0.0;
  CHECK(zeros > 5);
  CHECK(st["both_zero"].get<long>() >= zeros);
  CHECK(st["compared"].get<long>() + st["both_zero"].get<long>() + st["failed"].get<long>() == 40);
  CHECK(st["compared"].get<long>() > 5);
  for (const char* key : {"off_10pct", "off_10pct_share", "wrong_sign", "wrong_sign_share"})
    CHECK(st.contains(key));
  CHECK(r.output.find("both zero, left out") != std::string::npos);
  CHECK(r.output.find("off by >10%") != std::string::npos);
}

TEST_CASE(
    "straight-through CFD with uncontrolled tangents is noted by sweep, gradient, optimize and sweep2d") {
  // Uncontrolled: adaptive steps across the surrogate's own switches (events or surrogate_events off) and
  // gradient.control_tangents off.
  const std::string note = "note: straight-through CFD with adaptive steps";
  const std::string base = "sweep " + scene("toss_box_diffmjx.json") + " --set sweep.points=3";
  struct Case {
    const char* sets;
    bool noted;
  };
  for (const Case& c :
       {Case{" --set contact.cfd.enabled=true", false},
        Case{" --set contact.cfd.enabled=true --set contact.cfd.surrogate_events=false", true},
        Case{" --set contact.cfd.enabled=true --set integrator.events=false", true},
        Case{" --set contact.cfd.enabled=true --set integrator.events=false --set "
             "gradient.control_tangents=true",
             false},
        Case{" --set contact.cfd.enabled=true --set integrator.events=false --set integrator.type=euler",
             false},
        Case{"", false}}) {
    const auto r = run_softgrad(base + c.sets);
    INFO(c.sets << "\n" << r.output);
    REQUIRE(r.exit_code == 0);
    CHECK((r.output.find(note) != std::string::npos) == c.noted);
  }
  // The gradient command says so too where it differentiates; finite differences alone see the plain model.
  const std::string gradient =
      "gradient " + scene("toss_box_diffmjx.json") +
      " --wrt model.bodies.0.vel.2 --set contact.cfd.enabled=true --set contact.cfd.surrogate_events=false "
      "--set integrator.steps=10";
  const auto forward = run_softgrad(gradient), fd = run_softgrad(gradient + " --mode fd");
  INFO(forward.output << "\n" << fd.output);
  REQUIRE(forward.exit_code == 0);
  REQUIRE(fd.exit_code == 0);
  CHECK(forward.output.find(note) != std::string::npos);
  CHECK(fd.output.find(note) == std::string::npos);
  // So do Adam along the sweep parameter and the 2-D maps.
  const std::string cfd =
      " --set contact.cfd.enabled=true --set integrator.events=false --set integrator.steps=10";
  const auto descent = run_softgrad("optimize " + scene("toss_box_diffmjx.json") + cfd + " --steps 1");
  const auto grid = run_softgrad("sweep2d " + scene("toss_box_diffmjx.json") + cfd +
                                 " --x model.bodies.0.vel.2 -3 -2 2 --y model.bodies.0.vel.1 -0.2 0 2");
  INFO(descent.output << "\n" << grid.output);
  REQUIRE(descent.exit_code == 0);
  REQUIRE(grid.exit_code == 0);
  CHECK(descent.output.find(note) != std::string::npos);
  CHECK(grid.output.find(note) != std::string::npos);
}
