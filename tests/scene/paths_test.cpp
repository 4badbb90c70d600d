// Dotted paths, get/set, schema lookup and differentiable_paths.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "scene_test_util.hpp"

using namespace sg::scene;
using nlohmann::json;

TEST_CASE("bracket and dot paths are the same path") {
  std::string error;
  const auto dotted = split_path("a.b.0.c", &error);
  const auto bracketed = split_path("a.b[0].c", &error);
  REQUIRE(dotted);
  REQUIRE(bracketed);
  CHECK(*dotted == *bracketed);
  CHECK(*dotted == std::vector<std::string>{"a", "b", "0", "c"});
  CHECK(canonical_path("model.particles[2].pos[1]") == "model.particles.2.pos.1");
  const json doc = {{"a", {{"b", {{{"c", 5}}, {{"c", 6}}}}}}};
  CHECK(get_path(doc, "a.b.1.c") == json(6));
  CHECK(get_path(doc, "a.b[1].c") == json(6));
  CHECK(get_path(doc, "a.b[1]") == get_path(doc, "a.b.1"));
}

TEST_CASE("malformed paths are rejected with a reason") {
  for (const char* bad : {"a..b", "a.", ".a", "a[", "a[x]", "a]b", "[0]", "a[0]b"}) {
    std::string error;
    CHECK_MESSAGE(!split_path(bad, &error), bad);
    CHECK_MESSAGE(error.find("malformed path") != std::string::npos, bad);
  }
  CHECK(split_path("", nullptr)->empty());
}

TEST_CASE("get_path returns nothing for missing keys and bad indices") {
  const json doc = {{"a", {1, 2, 3}}, {"b", {{"c", true}}}};
  CHECK(!get_path(doc, "a.3"));
  CHECK(!get_path(doc, "a.x"));
  CHECK(!get_path(doc, "b.d"));
  CHECK(!get_path(doc, "b.c.d"));
  CHECK(get_path(doc, "") == doc);
}

TEST_CASE("set_path and get_path round trip") {
  json doc = json::object();
  std::string error;
  CHECK(set_path(doc, "contact.penalty.k", 80.0, &error));
  CHECK(get_path(doc, "contact.penalty.k") == json(80.0));
  CHECK(set_path(doc, "v", json({1, 2, 3}), &error));
  CHECK(set_path(doc, "v[1]", "x", &error));
  CHECK(get_path(doc, "v.1") == json("x"));
  const LoadResult resolved = load_scene_text("{}", "x");
  json config = resolved.config;
  for (const auto& path : differentiable_paths(config)) {
    REQUIRE(set_path(config, path, 0.125, &error));
    CHECK_MESSAGE(get_path(config, path) == json(0.125), path);
  }
}

TEST_CASE("set_path refuses to create array entries and leaves the document unchanged") {
  json doc = {{"v", {1, 2}}, {"n", 3}};
  const json before = doc;
  std::string error;
  CHECK(!set_path(doc, "v.2", 0, &error));
  CHECK(error == "index 2 out of range: v has 2 entries");
  CHECK(!set_path(doc, "n.x", 0, &error));
  CHECK(error == "n is not an object or an array");
  CHECK(!set_path(doc, "w.0.x", 0, &error));
  CHECK(error == "no array at w");
  CHECK(!set_path(doc, "v.x", 0, &error));
  CHECK(doc == before);
}

TEST_CASE("differentiable_paths lists every differentiable number, particle by particle") {
  const LoadResult r = load_scene_text(R"({"model": {"particles": [{}, {}]}})", "x");
  REQUIRE(r.ok());
  const auto paths = differentiable_paths(r.config);
  const std::vector<std::string> expected = {
      "model.gravity.0",         "model.gravity.1",          "model.gravity.2",
      "model.plane.height",      "model.particles.0.mass",   "model.particles.0.radius",
      "model.particles.0.pos.0", "model.particles.0.pos.1",  "model.particles.0.pos.2",
      "model.particles.0.vel.0", "model.particles.0.vel.1",  "model.particles.0.vel.2",
      "model.particles.1.mass",  "model.particles.1.radius", "model.particles.1.pos.0",
      "model.particles.1.pos.1", "model.particles.1.pos.2",  "model.particles.1.vel.0",
      "model.particles.1.vel.1", "model.particles.1.vel.2",  "contact.penalty.k",
      "contact.penalty.c",       "contact.mujoco.solref.0",  "contact.mujoco.solref.1",
      "contact.mujoco.solimp.0", "contact.mujoco.solimp.1",  "contact.mujoco.solimp.2",
      "contact.mujoco.solimp.3", "contact.mujoco.solimp.4",  "contact.elastic.restitution",
      "contact.hard.kappa",      "contact.hard.friction",    "loss.terms.0.target",
  };
  CHECK(paths == expected);
  // Every one of them is a number in the config (kappa may also be "inf").
  for (const auto& path : paths) {
    const auto value = get_path(r.config, path);
    REQUIRE_MESSAGE(value, path);
    CHECK_MESSAGE((value->is_number() || *value == "inf"), path);
  }
}

TEST_CASE("find_field accepts patterns, concrete paths and vector components") {
  const FieldSpec* mass = find_field("model.particles.*.mass");
  REQUIRE(mass);
  CHECK(mass->kind == FieldKind::number);
  CHECK(mass->min == 0);
  CHECK(mass->min_exclusive);
  CHECK(mass->differentiable);
  CHECK(find_field("model.particles.3.mass") == mass);
  CHECK(find_field("model.particles[3].mass") == mass);
  const FieldSpec* pos = find_field("model.particles.0.pos.2");
  REQUIRE(pos);
  CHECK(pos->path == "model.particles.*.pos");
  CHECK(pos->length == 3);
  CHECK(find_field("contact.mujoco.solimp")->length == 5);
  CHECK(find_field("contact.mujoco.solref")->length == 2);
  CHECK(find_field("contact") == nullptr);
  CHECK(find_field("contact.modle") == nullptr);
  CHECK(find_field("integrator.dt.0") == nullptr);
  const FieldSpec* model = find_field("contact.model");
  REQUIRE(model);
  CHECK(model->choices == std::vector<std::string>{"none", "penalty", "mujoco", "elastic", "hard"});
}

TEST_CASE("the schema table is consistent") {
  for (const FieldSpec& spec : scene_fields()) {
    CAPTURE(spec.path);
    CHECK(!spec.help.empty());
    CHECK(spec.help.back() == '.');
    CHECK(find_field(spec.path) == &spec);
    CHECK(!(spec.min > spec.max));
    if (spec.kind == FieldKind::choice) {
      CHECK(std::find(spec.choices.begin(), spec.choices.end(), spec.default_value.get<std::string>()) !=
            spec.choices.end());
    }
    if (spec.kind == FieldKind::vector)
      CHECK(spec.default_value.size() == static_cast<std::size_t>(spec.length));
    if (spec.differentiable)
      CHECK((spec.kind == FieldKind::number || spec.kind == FieldKind::vector ||
             spec.kind == FieldKind::number_or_inf));
  }
  // The particles' default is the resolved entry the GUI shows when adding one.
  CHECK(find_field("model.particles")->default_value ==
        json::array({{{"mass", 1.0}, {"radius", 0.0}, {"pos", {0.0, 0.0, 1.0}}, {"vel", {0.0, 0.0, 0.0}}}}));
}
