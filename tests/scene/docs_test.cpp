// The format document must describe every key of the schema.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "engine/scene/scene.hpp"

TEST_CASE("docs/scene-format.md mentions every schema key") {
  std::ifstream in(std::string(SOFTGRAD_SOURCE_DIR) + "/docs/scene-format.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  for (const auto& spec : sg::scene::scene_fields())
    CHECK_MESSAGE(doc.find("`" + spec.path + "`") != std::string::npos, spec.path);
}
