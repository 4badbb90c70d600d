#include <doctest/doctest.h>

#include "engine/scene/readable_path.hpp"

using sg::scene::readable_path;

TEST_CASE("scene paths read as names in plot labels") {
  CHECK(readable_path("model.bodies.0.vel.2") == "body 0 velocity z");
  CHECK(readable_path("model.particles.1.pos.2") == "particle 1 position z");
  CHECK(readable_path("model.bodies.0.forces.0.force.1") == "body 0, pulse 0 force y");
  CHECK(readable_path("contact.hard.kappa") == "kappa (hard contact)");
  CHECK(readable_path("contact.penalty.k") == "stiffness k (penalty contact)");
  CHECK(readable_path("model.bodies.0.solimp.2") == "body 0 solimp[2]");
  CHECK(readable_path("integrator.dt") == "step");
  CHECK(readable_path("something") == "something");
  CHECK(readable_path("") == "");
}
