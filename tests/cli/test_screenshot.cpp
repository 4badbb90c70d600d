// softgrad screenshot: the whole workbench rendered headless (EGL) into a PNG, with clear errors.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cli_runner.hpp"

#ifdef SOFTGRAD_HAVE_GUI
using sg::test::run_softgrad;

TEST_CASE("screenshot renders a preset headless into a PNG") {
  const std::string out = SOFTGRAD_BINARY_DIR "/cli_screenshot.png";
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

TEST_CASE("screenshot reports a bad scene and an unknown preset as bad input") {
  const auto bad = run_softgrad("screenshot /nonexistent.json --out " SOFTGRAD_BINARY_DIR "/never.png");
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("/nonexistent.json") != std::string::npos);
  const auto preset =
      run_softgrad("screenshot --preset no_such_preset --out " SOFTGRAD_BINARY_DIR "/never.png");
  CHECK(preset.exit_code == 2);
  CHECK(preset.output.find("toy_coarse") != std::string::npos);  // lists the valid names
}
#endif
