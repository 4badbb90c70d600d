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
       "Tsit5 with rtol = atol = 1e-8: adaptive steps recover the smooth loss."},
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
      // 3-D rigid bodies. A rigid sweep point costs milliseconds (tosses) to about a second (billiards), so
      // these presets sweep fewer points than the scene files; the label says how many.
      {"box_toss_mjx",
       "Box toss: MJX",
       "toss_box_mjx.json",
       {},
       "MJX: explicit Euler, h = 0.01; the final y of a tossed box over its initial v_z (all 200 points: "
       "a fixed-step point costs well under a millisecond)."},
      {"box_toss_diffmjx",
       "Box toss: DiffMJX (100 pts)",
       "toss_box_diffmjx.json",
       {"integrator.rtol=1e-7", "integrator.atol=1e-7", "sweep.points=100"},
       "DiffMJX: Tsit5 with rtol = atol = 1e-7 on the same toss. Sweeps 100 points (the scene file has "
       "200)."},
      {"sphere_toss_diffmjx",
       "Sphere toss: DiffMJX (100 pts)",
       "toss_sphere_diffmjx.json",
       {"sweep.points=100"},
       "DiffMJX (Tsit5, 1e-8) sphere toss. Sweeps 100 points (the scene file has 200)."},
      {"capsule_toss_diffmjx",
       "Capsule toss: DiffMJX (100 pts)",
       "toss_capsule_diffmjx.json",
       {"sweep.points=100"},
       "DiffMJX (Tsit5, 1e-8) capsule toss. Sweeps 100 points (the scene file has 200)."},
      {"cylinder_toss_diffmjx",
       "Cylinder toss: DiffMJX (100 pts)",
       "toss_cylinder_diffmjx.json",
       {"sweep.points=100"},
       "DiffMJX (Tsit5, 1e-8) cylinder toss. Sweeps 100 points (the scene file has 200)."},
      {"ellipsoid_toss_diffmjx",
       "Ellipsoid toss: DiffMJX (100 pts)",
       "toss_ellipsoid_diffmjx.json",
       {"sweep.points=100"},
       "DiffMJX (Tsit5, 1e-8) ellipsoid toss. Sweeps 100 points (the scene file has 200)."},
      {"billiards_cfd",
       "Billiards: CFD (40 pts)",
       "billiards.json",
       {"sweep.points=40"},
       "Straight-through Contacts From Distance: the gradient sees the 8-ball from 10 cm (cyan lines). "
       "About 1 s per point, so 40 points (the scene file has 200).",
       0.2},
      {"billiards_nocfd",
       "Billiards: no CFD (40 pts)",
       "billiards.json",
       {"contact.cfd.enabled=false", "sweep.points=40"},
       "Plain contact: where the cue ball misses, the gradient vanishes. 40 points (the scene file has 200).",
       0.2},
      {"billiards_nogravity",
       "Billiards: no gravity (40 pts)",
       "billiards_nogravity.json",
       {"sweep.points=40"},
       "Only the ball-ball contact, no table: with CFD the derivative ODE is stiff and unrolled adaptive "
       "steps give oscillating gradients. 40 points (the scene file has 200).",
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
