#include "gui/presets.hpp"

namespace sg::gui {

std::span<const Preset> preset_table() {
  static const std::vector<Preset> table = {
      {"toy_coarse",
       "1-D toy: coarse",
       "toy_point_mass.json",
       {},
       "DiffMJX toy, h = 0.1: the loss has a sawtooth and the gradient oscillates in sign."},
      {"toy_fine",
       "1-D toy: fine",
       "toy_point_mass.json",
       {"integrator.substeps=1000"},
       "The same with 1000 substeps (h = 1e-4): the reference."},
      {"toy_adaptive",
       "1-D toy: adaptive",
       "toy_point_mass.json",
       {"integrator.type=tsit5", "integrator.rtol=1e-8", "integrator.atol=1e-8"},
       "Tsit5 with rtol = atol = 1e-8: adaptive steps recover the smooth loss; the located contact events "
       "give "
       "the continuous ODE's gradient (+-0.80035)."},
      {"toy_adaptive_plain",
       "1-D toy: adaptive, events off",
       "toy_point_mass.json",
       {"integrator.type=tsit5", "integrator.rtol=1e-8", "integrator.atol=1e-8", "integrator.events=false"},
       "The same stepping across the contact switches as DiffMJX: the gradient misses the damping jump at "
       "contact (1e-5 off) and FD of the adaptive simulation is noise."},
      {"elastic_naive",
       "Elastic: naive",
       "toy_elastic.json",
       {},
       "Ideal elastic impact with a velocity flip: dq/dq0 = +1, the wrong sign."},
      {"elastic_toi",
       "Elastic: time of impact",
       "toy_elastic.json",
       {"contact.elastic.toi=true"},
       "The step split at the time of impact: the analytic -1."},
      {"falling_hard",
       "Falling mass: hard",
       "falling_mass.json",
       {},
       "Moreau time stepping with hard contact (kappa = inf)."},
      {"falling_smoothed",
       "Falling mass: smoothed",
       "falling_mass.json",
       {"contact.hard.kappa=300"},
       "Analytic sigmoid smoothing of the contact, kappa = 300."},
      {"falling_stochastic",
       "Falling mass: stochastic",
       "falling_mass.json",
       {"gradient.smoothing.samples=64"},
       "Randomized smoothing with 64 samples alongside the hard model."},
      // 3-D rigid bodies, all 200 points of the scene files (a few milliseconds a point with contact events).
      {"box_toss_mjx",
       "Box toss: MJX",
       "toss_box_mjx.json",
       {},
       "MJX: explicit Euler, h = 0.01; the final y of a tossed box over its initial v_z (all 200 points: "
       "a fixed-step point costs well under a millisecond)."},
      {"box_toss_diffmjx",
       "Box toss: DiffMJX",
       "toss_box_diffmjx.json",
       {"integrator.rtol=1e-7", "integrator.atol=1e-7"},
       "DiffMJX: Tsit5 with rtol = atol = 1e-7 (one of the tolerances of DiffMJX's time-toss study; its "
       "sweep "
       "figure uses the scene's 1e-8) on the same toss, contact events located: AD within 1% of the "
       "tight-tolerance reference (median)."},
      {"box_toss_diffmjx_plain",
       "Box toss: DiffMJX, events off",
       "toss_box_diffmjx.json",
       {"integrator.rtol=1e-7", "integrator.atol=1e-7", "integrator.events=false"},
       "DiffMJX's own stepping across contact switches: the gradient misses the jumps at contact onset (16% "
       "median error at 1e-7, a 1.3% floor even at 1e-10)."},
      {"box_toss_diffmjx_cfd",
       "Box toss: DiffMJX, straight-through CFD",
       "toss_box_diffmjx.json",
       {"contact.cfd.enabled=true", "contact.cfd.solimp=[0,0.01,0.05,1,2]", "gradient.control_tangents=true"},
       "DiffMJX's CFD settings for the cube (solimp-CFD [0, 0.01, 0.05, 1, 2], straight-through): the same "
       "simulation, the surrogate's gradient. The tangents are under error control: without it, contact "
       "events "
       "let the steps run past the surrogate's own switches and the gradient is wild (try it)."},
      {"box_toss_diffmjx_softcol",
       "Box toss: DiffMJX soft collision",
       "toss_box_diffmjx_softcol.json",
       {},
       "DiffMJX's smoothed box collision (collision.mode diffmjx, softness 0.1): four coincident "
       "contacts at a blend of the lowest corners, 1-6 mm short of touching; the loss at v_z = -2 is "
       "DiffMJX's -0.3018 (exact collision: -0.2609)."},
      {"sphere_toss_diffmjx",
       "Sphere toss: DiffMJX",
       "toss_sphere_diffmjx.json",
       {},
       "DiffMJX (Tsit5, 1e-8) sphere toss."},
      {"capsule_toss_diffmjx",
       "Capsule toss: DiffMJX",
       "toss_capsule_diffmjx.json",
       {},
       "DiffMJX (Tsit5, 1e-8) capsule toss."},
      {"cylinder_toss_diffmjx",
       "Cylinder toss: DiffMJX",
       "toss_cylinder_diffmjx.json",
       {},
       "DiffMJX (Tsit5, 1e-8) cylinder toss."},
      {"ellipsoid_toss_diffmjx",
       "Ellipsoid toss: DiffMJX",
       "toss_ellipsoid_diffmjx.json",
       {},
       "DiffMJX (Tsit5, 1e-8) ellipsoid toss."},
      {"billiards_cfd",
       "Billiards: CFD",
       "billiards.json",
       {},
       "Straight-through Contacts From Distance: the gradient sees the 8-ball from 10 cm (cyan lines).",
       0.2},
      {"billiards_nocfd",
       "Billiards: no CFD",
       "billiards.json",
       {"contact.cfd.enabled=false"},
       "Plain contact: where the cue ball misses, the gradient vanishes; where it hits, AD through the "
       "collision matches FD.",
       0.2},
      {"billiards_nogravity",
       "Billiards: no gravity",
       "billiards_nogravity.json",
       {},
       "Only the ball-ball contact, no table: with CFD the derivative ODE is stiff and unrolled adaptive "
       "steps give oscillating gradients.",
       0.2},
  };
  return table;
}

const Preset* find_preset(const std::string& name) {
  for (const Preset& preset : preset_table()) {
    if (name == preset.name) return &preset;
  }
  return nullptr;
}

}  // namespace sg::gui
