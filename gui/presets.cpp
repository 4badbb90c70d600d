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
