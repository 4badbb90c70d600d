// model.type "mjcf" in the scene layer, without MuJoCo: the load error when no importer is registered, and,
// with a stand-in importer, how the scene's own keys and --set overrides lay over the imported ones.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/scene/mjcf_source.hpp"
#include "engine/scene/scene.hpp"
#include "tests/scene/scene_test_util.hpp"

using nlohmann::json;
using namespace sg::scene;
using sg::scene::test::message_at;

namespace {

std::string g_last_path;

// Two spheres at z = 1 and 2, MuJoCo's defaults otherwise, from any file whose name has no "broken".
MjcfKeys fake_importer(const std::string& path, const std::string&) {
  g_last_path = path;
  MjcfKeys out;
  if (path.find("broken") != std::string::npos) {
    out.errors = {path + ": geom 'wall' (box) is static",
                  path + ": tendon 'cable': tendons are not supported"};
    return out;
  }
  out.keys = {{"model",
               {{"gravity", {0, 0, -2}},
                {"bodies",
                 {{{"shape", "sphere"}, {"size", {0.1, 0.1, 0.1}}, {"pos", {0, 0, 1}}, {"density", 500}},
                  {{"shape", "sphere"}, {"size", {0.1, 0.1, 0.1}}, {"pos", {0, 0, 2}}}}}}},
              {"contact", {{"model", "mujoco"}, {"mujoco", {{"refsafe", false}}}}},
              {"integrator", {{"dt", 0.005}}}};
  return out;
}

// Registers the stand-in for one test and removes it afterwards.
struct FakeImporter {
  FakeImporter() { set_mjcf_importer(&fake_importer); }
  ~FakeImporter() { set_mjcf_importer(nullptr); }
};

const char* const kScene = R"({"model": {"type": "mjcf", "file": "models/two.xml",
                                         "bodies": [{"vel": [0, 0, -1]}]},
                              "integrator": {"type": "tsit5"}})";

}  // namespace

TEST_CASE("an mjcf scene without libmujoco is a load error at model.file") {
  set_mjcf_importer(nullptr);
  const LoadResult r = load_scene_text(kScene, "scenes/two.json");
  REQUIRE(r.errors.size() == 1);
  CHECK(message_at(r, "model.file") == "MJCF import needs libmujoco (libmujoco-dev); this build has none");
  CHECK(r.format_errors() ==
        "scenes/two.json: model.file: MJCF import needs libmujoco (libmujoco-dev); this build has none\n");
}

TEST_CASE("an mjcf scene needs model.file") {
  FakeImporter fake;
  const LoadResult r = load_scene_text(R"({"model": {"type": "mjcf"}})", "x.json");
  REQUIRE(r.errors.size() == 1);
  CHECK(sg::scene::test::contains(message_at(r, "model.file"), "needs model.file"));
}

TEST_CASE("the MJCF's keys fill the scene, and the scene's own keys and --set win") {
  FakeImporter fake;
  const LoadResult r =
      load_scene_text(kScene, "scenes/two.json", {"model.bodies.1.pos.2=3", "contact.mujoco.refsafe=true"});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  CHECK(g_last_path == "scenes/models/two.xml");  // relative to the scene file
  const json& c = r.config;
  CHECK(c["model"]["type"] == "rigid");
  CHECK(c["model"]["file"] == "models/two.xml");
  CHECK(c["model"]["gravity"] == json({0.0, 0.0, -2.0}));
  CHECK(c["model"]["bodies"].size() == 2);
  CHECK(c["model"]["bodies"][0]["pos"] == json({0.0, 0.0, 1.0}));   // imported
  CHECK(c["model"]["bodies"][0]["vel"] == json({0.0, 0.0, -1.0}));  // the scene's entry, merged by index
  CHECK(c["model"]["bodies"][0]["density"] == 500.0);               // imported, kept beside it
  CHECK(c["model"]["bodies"][1]["pos"] == json({0.0, 0.0, 3.0}));   // --set on an imported body
  CHECK(c["contact"]["mujoco"]["refsafe"] == true);                 // --set over the MJCF
  CHECK(c["integrator"]["dt"] == 0.005);                            // the MJCF's timestep
  CHECK(c["integrator"]["type"] == "tsit5");                        // the scene's
  CHECK(c["sweep"]["parameter"] == "model.bodies.0.pos.2");         // the rigid default
  // Resolving the resolved config changes nothing and imports nothing again.
  g_last_path.clear();
  const LoadResult again = resolve_scene(c, "elsewhere/copy.json");
  CHECK(again.ok());
  CHECK(again.config == c);
  CHECK(g_last_path.empty());
}

TEST_CASE("--set model.file and model.type apply before the import") {
  FakeImporter fake;
  const LoadResult r = load_scene_text(R"({"model": {"type": "rigid", "bodies": [{}]}})", "/abs/scene.json",
                                       {"model.bodies.1.pos.2=5", "model.type=mjcf", "model.file=other.xml"});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  CHECK(g_last_path == "/abs/other.xml");
  CHECK(r.config["model"]["bodies"][1]["pos"][2] == 5.0);
}

TEST_CASE("import errors are the only errors, each at model.file") {
  FakeImporter fake;
  const LoadResult r = load_scene_text(R"({"model": {"type": "mjcf", "file": "broken.xml"},
                                           "sweep": {"parameter": "model.bodies.0.vel.2"}})",
                                       "s.json");
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].path == "model.file");
  CHECK(r.errors[0].message == "broken.xml: geom 'wall' (box) is static");
  CHECK(r.errors[1].message == "broken.xml: tendon 'cable': tendons are not supported");
}

TEST_CASE("a scene cannot add bodies the MJCF does not have") {
  FakeImporter fake;
  const LoadResult r = load_scene_text(
      R"({"model": {"type": "mjcf", "file": "two.xml", "bodies": [{}, {}, {"pos": [0, 0, 1]}]}})", "s.json");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].path == "model.bodies.2");
  CHECK(sg::scene::test::contains(r.errors[0].message, "the MJCF model has 2 free bodies"));
}

TEST_CASE("a MuJoCo model file where a scene is expected loads as the scene of that model") {
  FakeImporter fake;
  // By its extension: the file is not read as JSON, the model is named relative to itself.
  const LoadResult r = load_scene_file("some/dir/Two.XML", {"integrator.type=tsit5"});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  CHECK(g_last_path == "some/dir/Two.XML");
  CHECK(r.config["name"] == "Two");
  CHECK(r.config["model"]["type"] == "rigid");
  CHECK(r.config["model"]["bodies"].size() == 2);
  CHECK(r.config["integrator"]["type"] == "tsit5");  // --set applies as to any scene
  // The chosen sweep runs from the model's own value (simulate's default) to half as high again.
  CHECK(r.config["sweep"]["parameter"] == "model.bodies.0.pos.2");
  CHECK(r.config["sweep"]["from"] == 1.0);
  CHECK(r.config["sweep"]["to"] == 1.5);
  // By its content: a file of another name whose first character is '<'.
  const std::string file =
      (std::filesystem::temp_directory_path() / ("sg_model_without_extension_" + std::to_string(::getpid())))
          .string();
  std::ofstream(file) << "\n  <mujoco model=\"two\"/>\n";
  const LoadResult sniffed = load_scene_file(file);
  INFO(sniffed.format_errors());
  REQUIRE(sniffed.ok());
  CHECK(g_last_path == file);
  CHECK(sniffed.config["name"] == std::filesystem::path(file).stem().string());
  std::filesystem::remove(file);
  // Import errors name the file, as from a scene.
  const LoadResult broken = load_scene_file("broken.xml");
  REQUIRE(broken.errors.size() == 2);
  CHECK(
      sg::scene::test::contains(message_at(broken, "model.file"), "broken.xml: geom 'wall' (box) is static"));
}

TEST_CASE("a scene that gives its sweep's parameter keeps the schema's range") {
  FakeImporter fake;
  const LoadResult r = load_scene_text(
      R"({"model": {"type": "mjcf", "file": "two.xml"}, "sweep": {"parameter": "model.bodies.1.pos.2"}})",
      "s.json");
  REQUIRE(r.ok());
  CHECK(r.config["sweep"]["from"] == 0.0);
  CHECK(r.config["sweep"]["to"] == 1.0);
  const LoadResult ranged =
      load_scene_text(R"({"model": {"type": "mjcf", "file": "two.xml"}, "sweep": {"to": 3}})", "s.json");
  REQUIRE(ranged.ok());
  CHECK(ranged.config["sweep"]["from"] == 0.0);  // a range given in part is not replaced
  CHECK(ranged.config["sweep"]["to"] == 3.0);
}
