// The format document must describe every key of the schema.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <fstream>
#include <sstream>

#include "engine/scene/scene.hpp"

TEST_CASE("docs/scene-format.md mentions every schema key") {
  std::ifstream in(sg::test::source_dir() + "/docs/scene-format.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  for (const auto& spec : sg::scene::scene_fields())
    CHECK_MESSAGE(doc.find("`" + spec.path + "`") != std::string::npos, spec.path);
}

TEST_CASE("the JSON examples in docs/scene-format.md load without errors") {
  std::ifstream in(sg::test::source_dir() + "/docs/scene-format.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string open = "```json\n", close = "```";
  int examples = 0;
  for (auto at = doc.find(open); at != std::string::npos; at = doc.find(open, at)) {
    const auto begin = at + open.size(), end = doc.find(close, begin);
    REQUIRE(end != std::string::npos);
    const auto result = sg::scene::load_scene_text(doc.substr(begin, end - begin), "example.json");
    CHECK_MESSAGE(result.ok(), result.format_errors());
    ++examples;
    at = end + close.size();
  }
  CHECK(examples == 4);  // the particle, rigid, joint-tree and height-field examples
}
