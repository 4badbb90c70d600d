// `--set path=value` overrides: how values are read, which paths exist, and the errors they give.
#include <doctest/doctest.h>

#include "scene_test_util.hpp"

using namespace sg::scene;
using namespace sg::scene::test;
using nlohmann::json;

namespace {
LoadResult with(const std::vector<std::string>& overrides, const std::string& text = "{}") {
  return load_scene_text(text, "scenes/x.json", overrides);
}
}  // namespace

TEST_CASE("override values: numbers, bare strings, quoted strings, arrays, booleans") {
  const LoadResult r = with({"integrator.dt=0.005", "integrator.steps=250", "contact.model=mujoco",
                             "name=\"quoted\"", "model.gravity=[0, 0, -2]", "model.plane.enabled=false",
                             "description=two words", "integrator.type=tsit5"});
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  CHECK(r.config["integrator"]["dt"] == 0.005);
  CHECK(r.config["integrator"]["steps"] == 250);
  CHECK(r.config["contact"]["model"] == "mujoco");
  CHECK(r.config["name"] == "quoted");
  CHECK(r.config["model"]["gravity"] == json({0.0, 0.0, -2.0}));
  CHECK(r.config["model"]["plane"]["enabled"] == false);
  CHECK(r.config["description"] == "two words");
}

TEST_CASE("text fields keep the text even when it looks like JSON") {
  const LoadResult r = with({"name=123", "description=true"});
  REQUIRE(r.ok());
  CHECK(r.config["name"] == "123");
  CHECK(r.config["description"] == "true");
}

TEST_CASE("overrides apply in order, the last one wins") {
  const LoadResult r = with({"integrator.dt=0.5", "integrator.dt=0.25"});
  REQUIRE(r.ok());
  CHECK(r.config["integrator"]["dt"] == 0.25);
}

TEST_CASE("overrides reach into arrays and vector components, with dots or brackets") {
  const char* two = R"({"model": {"particles": [{}, {}]}})";
  const LoadResult r =
      with({"model.particles.1.mass=3", "model.particles[0].pos[2]=0.5", "model.gravity.2=-2"}, two);
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  CHECK(r.config["model"]["particles"][1]["mass"] == 3.0);
  CHECK(r.config["model"]["particles"][0]["pos"] == json({0.0, 0.0, 0.5}));
  CHECK(r.config["model"]["gravity"] == json({0.0, 0.0, -2.0}));
  // The default particle exists even when the file has none.
  CHECK(with({"model.particles.0.mass=4"}).config["model"]["particles"][0]["mass"] == 4.0);
  // A whole array can be replaced, which is how entries are added.
  const LoadResult added =
      with({R"(model.particles=[{"mass": 1}, {"mass": 2}])", "model.particles.1.radius=0.1"});
  REQUIRE(added.ok());
  CHECK(added.config["model"]["particles"][1]["radius"] == 0.1);
}

TEST_CASE("\"inf\" is accepted only where infinity is allowed") {
  const LoadResult kappa = with({"contact.hard.kappa=300", "contact.hard.kappa=inf"});
  REQUIRE(kappa.ok());
  CHECK(kappa.config["contact"]["hard"]["kappa"] == "inf");
  CHECK(with({"contact.hard.kappa=300"}).config["contact"]["hard"]["kappa"] == 300.0);
  CHECK(message_at(with({"integrator.dt=inf"}), "integrator.dt") == "expected a number > 0, got inf");
  CHECK(message_at(with({"contact.hard.kappa=-inf"}), "contact.hard.kappa") ==
        "expected a number > 0 or \"inf\", got -inf");
  CHECK(message_at(with({"model.gravity.0=inf"}), "model.gravity.0") == "expected a number, got inf");
  CHECK(message_at(with({"integrator.dt=1e400"}), "integrator.dt") ==
        "expected a number > 0, got 1e400 (too large for a double)");
}

TEST_CASE("NaN in an override is an error naming the path") {
  CHECK(message_at(with({"integrator.dt=nan"}), "integrator.dt") ==
        "NaN is not allowed (expected a number > 0)");
  CHECK(message_at(with({"contact.hard.kappa=NaN"}), "contact.hard.kappa") ==
        "NaN is not allowed (expected a number > 0 or \"inf\")");
  CHECK(message_at(with({"model.gravity=[0, nan, 1]"}), "model.gravity") ==
        "NaN and infinity are not allowed, got [0, nan, 1]");
  CHECK(message_at(with({"model.particles.0.pos.1=nan"}), "model.particles.0.pos.1") ==
        "NaN is not allowed (expected a number in [-1000000, 1000000])");
}

TEST_CASE("unknown override paths suggest the closest key") {
  CHECK(message_at(with({"contact.modle=hard"}), "contact.modle") ==
        "unknown override path (did you mean \"contact.model\"?)");
  CHECK(message_at(with({"integrater.dt=1"}), "integrater") ==
        "unknown override path (did you mean \"integrator\"?)");
  CHECK(message_at(with({"model.particles.0.mas=1"}), "model.particles.0.mas") ==
        "unknown override path (did you mean \"model.particles.0.mass\"?)");
}

TEST_CASE("overrides may not create array entries or go past a leaf") {
  CHECK(message_at(with({"model.particles.1.mass=2"}), "model.particles.1") ==
        "index 1 out of range: model.particles has 1 entry");
  CHECK(message_at(with({"model.gravity.3=1"}), "model.gravity.3") ==
        "index 3 out of range: model.gravity has 3 entries");
  CHECK(message_at(with({"model.particles.first.mass=2"}), "model.particles") ==
        "expected an index after it, got \"first\"");
  CHECK(message_at(with({"integrator.dt.x=2"}), "integrator.dt") == "is a number and has no field \"x\"");
}

TEST_CASE("malformed overrides") {
  const LoadResult no_equals = with({"integrator.dt"});
  REQUIRE(no_equals.errors.size() == 1);
  CHECK(no_equals.errors[0].message == "override \"integrator.dt\" must have the form path=value");
  CHECK(
      contains(message_at(with({"model.particles[x].mass=1"}), "model.particles[x].mass"), "malformed path"));
  // Bad values set by an override are caught by the validator like values in the file.
  CHECK(message_at(with({"integrator.dt=-1"}), "integrator.dt") == "expected a number > 0, got -1");
  CHECK(message_at(with({"contact.model=hrd"}), "contact.model") ==
        "expected one of none, penalty, mujoco, elastic, hard; got \"hrd\" (did you mean \"hard\"?)");
}
