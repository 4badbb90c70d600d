#pragma once
// The numeric side of a scene as plain data: the model, the loss and the integrator, gradient, descent and
// sweep settings. No JSON and no strings in the data itself, so that device code can hold it
// (engine/problem/problem.hpp adds the resolved scene it came from).
#include <cmath>
#include <cstddef>
#include <string>

#include "engine/integrate/settings.hpp"
#include "engine/model/joint_tree_model.hpp"
#include "engine/model/particle_model.hpp"
#include "engine/model/rigid_model.hpp"
#include "engine/problem/loss.hpp"

namespace sg {

enum class ModelType : unsigned char { particles, rigid, tree };

// Everything a run may differentiate with respect to, in one trivially copyable block.
template <class S>
struct ProblemData {
  ModelType type = ModelType::particles;
  ParticleModel<S> model;  // used when type == particles
  RigidModel<S> rigid;     // used when type == rigid
  JointTreeModel<S> tree;  // used when type == tree
  LossSpec<S> loss;
};

// The bodies a loss term or a data file may name: particles, free bodies or the tree's bodies.
template <class S>
int scored_body_count(const ProblemData<S>& p) {
  if (p.type == ModelType::rigid) return p.rigid.count;
  if (p.type == ModelType::tree) return p.tree.bodies();
  return p.model.count;
}

template <class T, class S>
ProblemData<T> convert_problem(const ProblemData<S>& p) {
  ProblemData<T> r;
  r.type = p.type;
  r.model = convert_model<T>(p.model);
  r.rigid = convert_model<T>(p.rigid);
  r.tree = convert_model<T>(p.tree);
  r.loss.count = p.loss.count;
  for (int i = 0; i < p.loss.count; ++i) {
    const LossTerm<S>& t = p.loss.terms[i];
    r.loss.terms[i] = {t.quantity, t.body, t.axis, t.kind, T(value(t.target)), t.weight};
  }
  return r;
}

// Calls f(path, S&) for every differentiable scalar, with the scene file's dotted path.
template <class S, class F>
void visit_problem_params(ProblemData<S>& p, F&& f) {
  if (p.type == ModelType::rigid) {
    visit_model_params(p.rigid, f);
  } else if (p.type == ModelType::tree) {
    visit_model_params(p.tree, f);
  } else {
    visit_model_params(p.model, f);
  }
  for (int i = 0; i < p.loss.count; ++i)
    f("loss.terms." + std::to_string(i) + ".target", p.loss.terms[i].target);
}

struct SmoothingSettings {
  long samples = 0;
  double sigma = 0.05;
  unsigned long seed = 1;
};

// What a sweep compares its AD curve against (gradient.reference): central FD of the same simulation (exact
// for the discrete map of fixed steps, noisy across adaptive step decisions), central FD of the simulation at
// tight settings, or forward-mode AD at tight settings.
enum class Reference : unsigned char { fd, fd_tight, ad_tight };

// The tight settings of a reference: adaptive solvers at rtol = atol = rtol, fixed-step ones with
// `substeps` times the scene's substeps.
struct TightSettings {
  double rtol = 1e-10;
  long substeps = 100;
};

struct GradientSettings {
  double fd_eps = 1e-6;
  bool reverse = false;       // gradient.mode: reverse (a taped run) instead of forward (a dual run)
  bool backsolve = false;     // gradient.mode: backsolve (the continuous adjoint, integrated backwards)
  long checkpoint_steps = 8;  // reverse mode: accepted steps per taped segment (0: the whole run)
  Reference reference = Reference::fd;
  TightSettings tight;
  SmoothingSettings smoothing;
};

// Gradient descent on the loss curve (optimize.*, engine/optimize/descent.hpp): Adam from `starts` values
// spread over the sweep range, `steps` steps with learning rate `lr` (in units of the swept parameter).
struct DescentSettings {
  long starts = 5;
  long steps = 30;
  double lr = 0.1;
  double lr_final = 0.0;  // the last step's learning rate, reached geometrically from lr; 0: constant lr
};

// The learning rate of step i (0-based) of `steps`: lr, falling geometrically to lr_final at the last step.
inline double descent_lr(const DescentSettings& s, long i) {
  if (!(s.lr_final > 0.0) || s.steps <= 1) return s.lr;
  const double t = static_cast<double>(i) / static_cast<double>(s.steps - 1);
  return s.lr * std::pow(s.lr_final / s.lr, t);
}

// Identification (softgrad fit, the GUI's Identify tab): the scene numbers fitted and where the fit starts;
// the scene's own values are the truth that synthetic measurements come from.
struct IdentifySpec {
  std::vector<std::string> paths;
  std::vector<double> start;
  std::vector<double> min, max;  // identify.parameters.*.min / max (+-inf when open)
  double noise = 0.0;            // synthetic measurements: Gaussian noise (m) on every coordinate
  unsigned long seed = 1;
  bool adam = false;  // identify.method: Levenberg-Marquardt (false) or Adam
  int steps = 200;
  bool profile = false;   // identify.profile: profile-likelihood intervals after the fit
  double level = 0.6827;  // identify.level: their (and the bootstrap's) confidence level
  int bootstrap = 0;      // identify.bootstrap: parametric bootstrap draws after the fit (0: none)
  bool bootstrap_from_fit =
      false;  // identify.bootstrap_from: refits start at the fitted values, not the start
  // identify.rollouts: more measured runs of the same scene, each with one number set to another value.
  std::vector<std::string> rollout_paths;
  std::vector<double> rollout_values;
};

// The slot at a byte offset within ProblemData<S> (problem.hpp's parameter_offset finds it once by path).
template <class S>
SG_HD S& parameter_at(ProblemData<S>& p, std::ptrdiff_t offset) {
  return *reinterpret_cast<S*>(reinterpret_cast<char*>(&p) + offset);
}

struct SweepSpec {
  std::string parameter;
  double from = 0.0, to = 1.0;
  long points = 200;

  double value_at(long i) const {
    if (points <= 1) return from;
    return from + (to - from) * static_cast<double>(i) / static_cast<double>(points - 1);
  }
};

}  // namespace sg
