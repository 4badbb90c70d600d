// libFuzzer target: the scene loader and the --set parser, from text to a validated Problem. The input is
// a scene text, optionally followed by lines "\n--set path=value" (each one override), so one corpus
// exercises both parsers and their interplay. Any crash, hang, sanitizer report or exception escaping the
// loader is a finding; the loader must answer with a Problem or with messages.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/problem/load_problem.hpp"

namespace {

void split_input(const std::string& input, std::string* scene, std::vector<std::string>* overrides) {
  const std::string marker = "\n--set ";
  std::size_t at = input.find(marker);
  *scene = input.substr(0, at);
  while (at != std::string::npos) {
    const std::size_t start = at + marker.size();
    const std::size_t next = input.find(marker, start);
    overrides->push_back(input.substr(start, next == std::string::npos ? std::string::npos : next - start));
    at = next;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string scene;
  std::vector<std::string> overrides;
  split_input(std::string(reinterpret_cast<const char*>(data), size), &scene, &overrides);
  const sg::ProblemLoad loaded = sg::load_problem_text(scene, "fuzz.json", overrides);
  // Exactly one of a problem or messages; __builtin_trap makes a violation a finding.
  if (loaded.ok() == !loaded.errors.empty()) __builtin_trap();
  return 0;
}
