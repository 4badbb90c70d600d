#pragma once
// Runs the softgrad binary as a user would and captures its exit code and output.
#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include "tests/test_paths.hpp"

#include <nlohmann/json.hpp>

namespace sg::test {

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline CliResult run_softgrad(const std::string& args) {
  const std::string cmd = sg::test::binary_dir() + "/cli/softgrad " + args + " 2>&1";
  CliResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

inline std::string scene(const std::string& name) {
  return sg::test::source_dir() + "/scenes/" + name;
}

}  // namespace sg::test
