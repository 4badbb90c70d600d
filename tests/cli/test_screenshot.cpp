// softgrad screenshot: the whole workbench rendered headless (EGL) into a PNG, with clear errors; --png of
// the sweep commands.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cstdio>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

#ifdef SOFTGRAD_HAVE_GUI
using sg::test::run_softgrad;

TEST_CASE("screenshot renders a preset headless into a PNG") {
  const std::string out = sg::test::binary_dir() + "/cli_screenshot.png";
  std::remove(out.c_str());
  const auto r =
      run_softgrad("screenshot --preset toy_coarse --set sweep.points=50 --size 640x400 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  std::ifstream png(out, std::ios::binary);
  char magic[8] = {};
  png.read(magic, 8);
  CHECK(std::string(magic + 1, 3) == "PNG");
  png.seekg(0, std::ios::end);
  CHECK(png.tellg() > 10000);  // a real picture, not an empty frame
}

TEST_CASE("screenshot --tradeoff runs the accuracy-against-cost study and shows the Cost tab") {
  const std::string out = sg::test::binary_dir() + "/cli_screenshot_tradeoff.png";
  std::remove(out.c_str());
  const auto r = run_softgrad("screenshot " + sg::test::scene("toy_point_mass.json") +
                              " --set sweep.points=20 --tradeoff --size 900x600 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  std::ifstream png(out, std::ios::binary);
  png.seekg(0, std::ios::end);
  CHECK(png.tellg() > 10000);
}

TEST_CASE("screenshot on one allowed core (taskset): the workbench's jobs ask TBB for no more workers") {
  // The GUI's sweep used std::thread::hardware_concurrency threads: under a one-core affinity TBB refused the
  // extra worker with a warning on stderr. The cores are now counted as TBB counts them.
  const std::string out = sg::test::binary_dir() + "/cli_screenshot_one_core.png";
  const std::string cmd = "taskset -c 0 " + sg::test::binary_dir() +
                          "/cli/softgrad screenshot --preset billiards_cfd "
                          "--set sweep.points=12 --size 640x400 --out " +
                          out + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  char buf[4096];
  while (fgets(buf, sizeof buf, pipe)) output += buf;
  INFO(output);
  CHECK(pclose(pipe) == 0);
  CHECK(output.find("TBB Warning") == std::string::npos);
}

TEST_CASE("sweep2d --png and sweep --png draw their figures headless with the GUI's plot renderer") {
  for (const std::string& command :
       {std::string("sweep2d " + sg::test::source_dir() +
                    "/scenes/toy_point_mass.json --x model.particles.0.pos.2 0 3 12 "
                    "--y contact.penalty.k 20 80 8 --png "),
        std::string("sweep " + sg::test::source_dir() +
                    "/scenes/toy_point_mass.json --set sweep.points=100 --png ")}) {
    const std::string out = sg::test::binary_dir() + "/cli_figure.png";
    std::remove(out.c_str());
    const auto r = run_softgrad(command + out);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("plot: " + out) != std::string::npos);
    std::ifstream png(out, std::ios::binary);
    char magic[8] = {};
    png.read(magic, 8);
    CHECK(std::string(magic + 1, 3) == "PNG");
    png.seekg(0, std::ios::end);
    CHECK(png.tellg() > 10000);  // axes, heatmaps or curves, not an empty frame
  }
}

TEST_CASE("screenshot --identify runs the scene's fit and shows the Identify tab, or says there is none") {
  const std::string out = sg::test::binary_dir() + "/cli_identify.png";
  std::remove(out.c_str());
  const auto r = run_softgrad(
      "screenshot --preset identify_cube --identify --set sweep.points=20 --size 800x500 "
      "--out " +
      out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  std::ifstream png(out, std::ios::binary);
  png.seekg(0, std::ios::end);
  CHECK(png.tellg() > 10000);
  const auto none = run_softgrad("screenshot " + sg::test::source_dir() +
                                 "/scenes/toy_point_mass.json --identify --out " + out + ".never.png");
  CHECK(none.exit_code != 0);
  CHECK(none.output.find("identify.parameters") != std::string::npos);
}

TEST_CASE("screenshot --replay-toss shows a measured toss beside its simulation, or says why it cannot") {
  const std::string out = sg::test::binary_dir() + "/cli_replay_toss.png";
  std::remove(out.c_str());
  // A one-toss file in the ContactNets format, 3 frames 1/148 s apart.
  const std::string file = sg::test::binary_dir() + "/cli_one_toss.csv";
  std::ofstream(file) << "toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
                         "7,0,0,0,0.2,1,0,0,0,0.5,0,0,0,0,1\n"
                         "7,0.006756756756756757,0.0034,0,0.1998,1,0,0,0,0.5,0,-0.07,0,0,1\n"
                         "7,0.013513513513513514,0.0068,0,0.1993,1,0,0,0,0.5,0,-0.13,0,0,1\n";
  const std::string scene = sg::test::scene("contactnets_cube.json");
  const auto r = run_softgrad("screenshot " + scene + " --replay-toss 7 --tosses " + file +
                              " --set sweep.points=10 --size 800x500 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  std::ifstream png(out, std::ios::binary);
  png.seekg(0, std::ios::end);
  CHECK(png.tellg() > 10000);
  const auto unknown = run_softgrad("screenshot " + scene + " --replay-toss 8 --tosses " + file +
                                    " --set sweep.points=10 --out " + out + ".never.png");
  CHECK(unknown.exit_code != 0);
  CHECK(unknown.output.find("--replay-toss: toss 8: not in") != std::string::npos);
  std::ifstream never(out + ".never.png");
  CHECK_FALSE(never.good());
}

TEST_CASE("screenshot --ui-scale renders the workbench at a reduced scale, and refuses one out of range") {
  const std::string out = sg::test::binary_dir() + "/cli_ui_scale.png";
  std::remove(out.c_str());
  auto r = run_softgrad(
      "screenshot --preset toy_coarse --set sweep.points=20 --ui-scale 0.8 --size 800x500 --out " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(std::ifstream(out).good());
  r = run_softgrad("screenshot --preset toy_coarse --ui-scale 0.1 --out " + out + ".never.png");
  CHECK(r.exit_code != 0);
  CHECK(r.output.find("--ui-scale") != std::string::npos);
}

TEST_CASE("screenshot --mpc refuses a scene without a joint tree, naming the reason") {
  // (The MPC tab on the push task itself: tests/gui/mpc_workbench_test.cpp.)
  const std::string out = sg::test::binary_dir() + "/cli_mpc.png";
  std::remove(out.c_str());
  const auto r = run_softgrad("screenshot " + sg::test::source_dir() +
                              "/scenes/toy_point_mass.json --set sweep.points=5 --mpc --out " + out);
  CHECK(r.exit_code != 0);
  CHECK(r.output.find("--mpc: MPC plans the actuators of a joint tree") != std::string::npos);
  CHECK_FALSE(std::ifstream(out).good());
}

TEST_CASE("screenshot reports a bad scene and an unknown preset as bad input") {
  const auto bad =
      run_softgrad("screenshot /nonexistent.json --out " + sg::test::binary_dir() + "/never.png");
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("/nonexistent.json") != std::string::npos);
  const auto preset =
      run_softgrad("screenshot --preset no_such_preset --out " + sg::test::binary_dir() + "/never.png");
  CHECK(preset.exit_code == 2);
  CHECK(preset.output.find("toy_coarse") != std::string::npos);  // lists the valid names
}
#endif
