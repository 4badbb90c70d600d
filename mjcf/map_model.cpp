#include "mjcf/map_model.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "engine/rigid/inertia.hpp"
#include "mjcf/free_bodies.hpp"
#include "mjcf/json_numbers.hpp"

namespace sg::mjcf {
namespace {

using nlohmann::json;

// friction, solref, solimp, condim, margin: the same keys for the plane and the bodies.
void contact_keys(const mjModel* m, int g, json& out) {
  out["friction"] = numbers(m->geom_friction + 3 * g, 3);
  out["solref"] = numbers(m->geom_solref + mjNREF * g, 2);
  out["solimp"] = numbers(m->geom_solimp + mjNIMP * g, 5);
  out["condim"] = m->geom_condim[g];
  out["margin"] = m->geom_margin[g];
}

// x with 10 significant digits, when that is within tol of it: the number the XML most likely gave, before
// MuJoCo's compiler turned it into a mass.
std::optional<double> short_decimal(double x, double tol) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", x);
  const double s = std::strtod(text, nullptr) + 0.0;  // + 0.0: no -0
  if (std::fabs(s - x) <= tol) return s;
  return std::nullopt;
}

// MuJoCo keeps only the mass. When mass / volume is a short decimal (a density the XML most likely gave,
// e.g. the cube's 100) the body gets that density, and softgrad computes the mass as a JSON scene with that
// density would (0.1 kg, where MuJoCo's order of operations gives 0.10000000000000002); otherwise it gets
// MuJoCo's mass (the XML's mass="0.17" stays 0.17). Either way the inertia follows from the shape.
void mass_keys(const mjModel* m, const FreeBody& fb, json& out) {
  const double mass = m->body_mass[fb.body];
  const MassInertia<double> unit =
      geom_mass_inertia(*body_shape(m->geom_type[fb.geom]), scene_size(m, fb.geom), 1.0);
  const double ratio = mass / unit.mass;
  const auto density = short_decimal(ratio, 4e-16 * ratio);
  if (density && std::fabs(*density * unit.mass - mass) <= 4e-16 * mass) {
    out["density"] = *density;
    out["mass"] = 0.0;
  } else {
    out["mass"] = mass;
  }
}

// An Euler angle in degrees from the quaternion is off by rounding (59.99999999999999, 1e-15); within 1e-12
// of a multiple of 1e-9 it is written as that multiple, the angle the XML most likely gave.
double round_angle(double degrees) {
  const double rounded = std::round(degrees * 1e9) / 1e9 + 0.0;  // + 0.0: no -0
  return std::fabs(rounded - degrees) <= 1e-12 ? rounded : degrees;
}

bool collide(const mjModel* m, int a, int b) {
  return (m->geom_contype[a] & m->geom_conaffinity[b]) || (m->geom_contype[b] & m->geom_conaffinity[a]);
}

json body_keys(const mjModel* m, const mjData* d, const FreeBody& fb) {
  const mjcmp::BodyFrame g = geom_frame(m, d, fb);
  double euler[3];
  euler_xyz_deg(g.quat, euler);
  for (double& angle : euler) angle = round_angle(angle);
  const Vec3<double> size = scene_size(m, fb.geom);
  json b = {{"shape", geom_type_name(*body_shape(m->geom_type[fb.geom]))},
            {"size", {size.x, size.y, size.z}},
            {"pos", numbers(g.pos, 3)},
            {"euler", {euler[0], euler[1], euler[2]}},
            {"vel", numbers(g.vel, 3)},
            {"angvel", numbers(g.angvel, 3)}};
  mass_keys(m, fb, b);
  contact_keys(m, fb.geom, b);
  return b;
}

json plane_keys(const mjModel* m, const mjData* d, const std::vector<FreeBody>& fbs) {
  for (int g = 0; g < m->ngeom; ++g) {
    if (m->geom_type[g] != mjGEOM_PLANE || m->body_weldid[m->geom_bodyid[g]] != 0) continue;
    json p = {{"enabled", collide(m, g, fbs[0].geom)}, {"height", d->geom_xpos[3 * g + 2]}};
    contact_keys(m, g, p);
    return p;
  }
  return {{"enabled", false}};
}

}  // namespace

json scene_keys(const mjModel* m, const mjData* d) {
  const std::vector<FreeBody> fbs = free_bodies(m);
  const mjOption& o = m->opt;
  const bool gravity = !(o.disableflags & mjDSBL_GRAVITY);
  const bool contacts = !(o.disableflags & (mjDSBL_CONSTRAINT | mjDSBL_CONTACT));
  json bodies = json::array();
  for (const FreeBody& fb : fbs) bodies.push_back(body_keys(m, d, fb));
  json model = {{"gravity", gravity ? numbers(o.gravity, 3) : json({0.0, 0.0, 0.0})},
                {"plane", plane_keys(m, d, fbs)},
                {"bodies", std::move(bodies)},
                {"collide_bodies", fbs.size() < 2 || collide(m, fbs[0].geom, fbs[1].geom)}};
  json contact = {{"model", contacts ? "mujoco" : "none"},
                  {"mujoco",
                   {{"refsafe", !(o.disableflags & mjDSBL_REFSAFE)},
                    {"impratio", o.impratio},
                    {"cone", o.cone == mjCONE_ELLIPTIC ? "elliptic" : "pyramidal"}}}};
  json integrator = {{"dt", o.timestep}, {"type", o.integrator == mjINT_RK4 ? "rk4" : "euler"}};
  return {
      {"model", std::move(model)}, {"contact", std::move(contact)}, {"integrator", std::move(integrator)}};
}

}  // namespace sg::mjcf
