#pragma once
// MJCF files for the import tests: written from inline text into the build folder, so that each test shows
// the XML it checks.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "mjcf/import.hpp"

namespace sg::test {

inline std::string mjcf_test_path(const std::string& name) {
  return std::string(SOFTGRAD_BINARY_DIR) + "/mjcf_tests/" + name + ".xml";
}

inline std::string write_mjcf(const std::string& name, const std::string& xml) {
  const std::string path = mjcf_test_path(name);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << xml;
  return path;
}

// A model with the given option element and worldbody content.
inline std::string mjcf_model(const std::string& worldbody, const std::string& extra = "") {
  return "<mujoco>\n" + extra + "\n<worldbody>\n" + worldbody + "\n</worldbody>\n</mujoco>\n";
}

// The imported keys, failing the test on import errors.
inline nlohmann::json imported(const std::string& name, const std::string& xml) {
  const scene::MjcfKeys out = mjcf::import_mjcf(write_mjcf(name, xml));
  std::string errors;
  for (const auto& e : out.errors) errors += e + "\n";
  INFO(errors);
  REQUIRE(out.errors.empty());
  return out.keys;
}

// All import errors as one text, for substring checks.
inline std::string import_errors(const std::string& name, const std::string& xml) {
  std::string text;
  for (const auto& e : mjcf::import_mjcf(write_mjcf(name, xml)).errors) text += e + "\n";
  return text;
}

inline std::string source_path(const std::string& relative) {
  return std::string(SOFTGRAD_SOURCE_DIR) + "/" + relative;
}

}  // namespace sg::test
