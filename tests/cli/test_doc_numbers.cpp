// The numbers docs/ quote, re-derived (docs/numbers.json): each command is run once through the real binary,
// from the repository root, and each quoted number must still be in its document and be the command's output
// rounded to the digits quoted. A change that moves a number fails here until the document says the new one.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/cli/cli_runner.hpp"

using namespace sg::test;

namespace {

std::string source_path(const std::string& relative) {
  return sg::test::source_dir() + "/" + relative;
}

// Runs of whitespace become one space, so that a quote may span a line break of the document.
std::string squeeze(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && !out.empty() && out.back() == ' ') continue;
    out += space ? ' ' : c;
  }
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The value at a dotted path ("stats.compared", "parameters.0.forward").
const nlohmann::json* at_path(const nlohmann::json& doc, const std::string& path) {
  const nlohmann::json* node = &doc;
  std::stringstream parts(path);
  for (std::string part; std::getline(parts, part, '.');) {
    if (node->is_array()) {
      const std::size_t i = std::strtoul(part.c_str(), nullptr, 10);
      if (i >= node->size()) return nullptr;
      node = &(*node)[i];
    } else if (node->is_object() && node->contains(part)) {
      node = &(*node)[part];
    } else {
      return nullptr;
    }
  }
  return node;
}

// The quoted number without thousands separators ("73,839").
std::string plain(const std::string& quoted) {
  std::string out;
  for (char c : quoted)
    if (c != ',') out += c;
  return out;
}

// Half a unit in the last quoted digit: "1.7e-4" -> 0.05e-4, "0.00111751" -> 5e-9, "73839" -> 0.5.
double half_last_digit(const std::string& quoted) {
  const std::size_t e = quoted.find_first_of("eE");
  const std::string mantissa = quoted.substr(0, e);
  const int exponent = e == std::string::npos ? 0 : std::atoi(quoted.c_str() + e + 1);
  const std::size_t dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  return 0.5 * std::pow(10.0, exponent - decimals);
}

nlohmann::json run_once(const std::string& command, std::map<std::string, nlohmann::json>& cache) {
  if (auto it = cache.find(command); it != cache.end()) return it->second;
  const std::string out = sg::test::binary_dir() + "/doc_numbers.json";
  std::remove(out.c_str());
  // From the repository root, as the commands are written in the documents.
  const std::string cmd = "cd " + sg::test::source_dir() + " && " + sg::test::binary_dir() +
                          "/cli/softgrad " + command + " --out " + out + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  INFO(command);
  REQUIRE(status == 0);
  cache[command] = read_json(out);
  return cache[command];
}

// The measured data a command reads (../shared/data/..., beside the checkout) when it is missing here: the
// number is then not re-derived, and the run says so (scripts/test lists SOFTGRAD_TEST_PARTIAL lines; not
// SKIPPED, which would make ctest report the whole test skipped, failures of the other numbers included).
std::string missing_data(const std::string& command) {
  const std::size_t at = command.find("../shared/data/");
  if (at == std::string::npos) return "";
  const std::string file = command.substr(at, command.find(' ', at) - at);
  return std::filesystem::exists(source_path(file)) ? "" : file;
}

}  // namespace

TEST_CASE("every number docs/numbers.json lists is in its document and is what its command gives") {
  const nlohmann::json manifest = read_json(source_path("docs/numbers.json"));
  REQUIRE(manifest.at("numbers").size() > 0);
  std::map<std::string, nlohmann::json> outputs;
  std::map<std::string, std::string> documents;
  for (const nlohmann::json& entry : manifest.at("numbers")) {
    const std::string doc = entry.at("doc"), quote = entry.at("quote"), number = entry.at("number");
    const std::string command = entry.at("command"), field = entry.at("field");
    CAPTURE(doc);
    CAPTURE(quote);
    CAPTURE(command);
    if (!documents.count(doc)) documents[doc] = squeeze(read_text(source_path(doc)));
    CHECK(documents[doc].find(squeeze(quote)) != std::string::npos);
    CHECK(squeeze(quote).find(number) != std::string::npos);
    if (const std::string file = missing_data(command); !file.empty()) {
      std::printf("SOFTGRAD_TEST_PARTIAL: %s is missing: %s's %s not re-derived\n", file.c_str(), doc.c_str(),
                  number.c_str());
      continue;
    }
    const nlohmann::json result = run_once(command, outputs);
    const nlohmann::json* value = at_path(result, field);
    REQUIRE(value != nullptr);
    REQUIRE(value->is_number());
    const double got = value->get<double>(), quoted = std::strtod(plain(number).c_str(), nullptr);
    INFO("the command gives " << got << " where the document quotes " << number);
    CHECK(std::fabs(got - quoted) <= 1.0001 * half_last_digit(plain(number)));
  }
}
