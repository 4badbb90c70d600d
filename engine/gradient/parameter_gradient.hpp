#pragma once
// Derivatives of one objective with respect to any set of the scene's differentiable numbers at once (dotted
// paths, as in the scene file): forward mode carries kLanes tangents per run (ceil(P / kLanes) runs), reverse
// mode records one run on a tape (engine/core/reverse.hpp) and sweeps it back once for all P, central
// finite differences take two runs per parameter. The objective is the scene's loss, or with trajectory data
// the mean squared position error against it (engine/gradient/trajectory_data.hpp).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/available_cores.hpp"  // the default threads of a gradient (`gradient`, `fit`)
#include "engine/core/dual.hpp"
#include "engine/gradient/trajectory_data.hpp"
#include "engine/problem/problem.hpp"
#include "engine/simulate/run.hpp"

namespace sg {

enum class GradientMode : unsigned char { forward, reverse, fd };

struct ObjectiveGradient {
  double loss = 0.0;
  std::vector<double> grad;   // per parameter, in the order given; NaN where it failed
  std::string status = "ok";  // the first failure, described
  long runs = 0;              // simulations it took
  SolveStats stats;           // of the first run
};

// The position errors against trajectory data and their Jacobian with respect to the parameters (forward
// mode): what a least-squares fit needs.
struct ResidualJacobian {
  std::vector<double> r;  // m residuals (3 per data sample, 12 with its orientation)
  std::vector<double> J;  // m x P, row-major
  long samples = 0;       // the data samples they come from: the objective is |r|^2 / samples
  std::string status = "ok";
  long runs = 0;
};

class ParameterGradient {
 public:
  static constexpr int kLanes = 4;
  using Lanes = Dual<kLanes>;

  // Throws std::invalid_argument with "PATH: why" for a path that is not a differentiable number of this
  // scene (with the nearest one), a repeated path, or a mass of 0 (meaning: from the shape and density).
  // data may be null (the scene's loss); it must outlive the evaluator.
  ParameterGradient(const Problem& problem, std::vector<std::string> paths, const TrajectoryData* data);

  const std::vector<std::string>& paths() const { return paths_; }
  // The objective: the scene's loss at the final state (false, the default) or its mean over the run's output
  // steps after the start (engine/gradient/running_loss.hpp; without trajectory data only).
  void set_running_loss(bool on) { running_ = on; }
  // Runs from now on start from this scene's data (the scene it was built from with other numbers, such
  // as another start state: a planner's next planning step); the parameters are then set over it.
  void set_base(const ProblemData<double>& data);
  // The parameters' values in the scene.
  std::vector<double> initial_values() const;
  // Other scene numbers every run sets, without derivatives: a measured start state
  // (engine/optimize/toss_segments.hpp). Paths throw as the constructor's; values, one per path, from then
  // on.
  void set_fixed_paths(const std::vector<std::string>& paths);
  void set_fixed_values(const std::vector<double>& values) { fixed_values_ = values; }
  // Other measurements (with the same output grid); they must outlive the evaluator.
  void set_data(const TrajectoryData* data) { data_ = data; }

  double objective(const std::vector<double>& values, SolveStats* stats = nullptr);
  ObjectiveGradient forward(const std::vector<double>& values);
  // The discrete adjoint: a values-only run with checkpoints, then the run replayed on the tape segment by
  // segment, backwards (engine/gradient/checkpointed_adjoint.hpp). Refuses (status)
  // integrator.through_controller, whose step-size derivatives only forward mode carries.
  ObjectiveGradient reverse(const std::vector<double>& values);
  // The continuous adjoint (engine/gradient/backsolve_adjoint.hpp): a values-only run, then the state and
  // the adjoint integrated backwards together. Adaptive solvers with frozen steps only (status otherwise).
  // Can be wrong on stiff contact: backsolve_reconstruction() says how far the state integrated back ends
  // from the initial state (in units of the tolerance; about 1 where the backward solve retraced the run).
  ObjectiveGradient backsolve(const std::vector<double>& values);
  double backsolve_reconstruction() const { return reconstruction_; }
  const SolveStats& backsolve_stats() const { return backward_; }
  // Accepted steps per taped segment (gradient.checkpoint_steps; 0: the whole run on one tape).
  void set_checkpoint_steps(long steps) { checkpoint_steps_ = steps; }
  // Threads for one call: a reverse run's segments are recorded side by side, forward mode's chunks of
  // lanes and finite differences' runs go to different threads (1: the caller alone). The numbers are the
  // same to the last bit. Leave 1 where the caller already runs evaluators in parallel.
  void set_threads(int threads) { threads_ = threads < 1 ? 1 : threads; }
  int threads() const { return threads_; }
  // The last reverse run: the largest tape (nodes), the memory it needed (the tape's nodes and adjoints and
  // the checkpoints), and the number of segments.
  long tape_nodes() const { return tape_nodes_; }
  std::size_t tape_bytes() const { return tape_bytes_; }
  long segments() const { return segments_; }
  // Needs trajectory data.
  ResidualJacobian residuals(const std::vector<double>& values);
  // Central differences with step eps * |x| (eps where x = 0), per parameter.
  ObjectiveGradient finite_difference(const std::vector<double>& values, double eps);

 private:
  // The data at `values` with parameters first .. first + kLanes - 1 seeded in lanes 0, 1, ...
  ProblemData<Lanes> seeded_chunk(const std::vector<double>& values, std::size_t first) const;
  template <class S>
  RunOutput<S> run(ProblemData<S>& pd, SimWorkspace<S>& ws, std::vector<S>* residuals = nullptr);

  std::vector<std::string> paths_;
  std::vector<std::ptrdiff_t> offset_double_, offset_lanes_;
  ProblemData<double> base_;
  ProblemData<Lanes> base_lanes_;
  std::vector<std::ptrdiff_t> offset_rev_;
  // set_fixed_paths' slots per scalar type, and their values.
  std::vector<std::ptrdiff_t> fixed_double_, fixed_lanes_, fixed_rev_;
  std::vector<double> fixed_values_;
  template <class S>
  void write_fixed(ProblemData<S>& pd, const std::vector<std::ptrdiff_t>& offsets) const;
  std::unique_ptr<ProblemData<Rev>> base_rev_;
  std::unique_ptr<SimWorkspace<Rev>> ws_rev_;
  long tape_nodes_ = 0, segments_ = 0, checkpoint_steps_ = 8;
  int threads_ = 1;
  bool running_ = false;
  std::size_t tape_bytes_ = 0;
  double reconstruction_ = 0.0;
  SolveStats backward_;
  // grad into out.grad, with the first non-finite entry as out's status.
  void copy_gradient(const std::vector<double>& grad, ObjectiveGradient& out) const;
  // The problem on a cleared tape with the parameters as its variables; their nodes in *leaves.
  ProblemData<double> double_problem(const std::vector<double>& values) const;  // base_ with these values
  std::unique_ptr<ProblemData<Rev>> taped_problem(const std::vector<double>& values,
                                                  std::vector<int>* leaves);
  IntegratorSettings integrator_;
  const TrajectoryData* data_;
  std::unique_ptr<SimWorkspace<double>> ws_double_;
  // Per thread of the runs that set_threads spreads (forward chunks, finite differences); [0]: the caller's.
  std::vector<std::unique_ptr<SimWorkspace<Lanes>>> ws_lanes_;
  std::vector<std::unique_ptr<SimWorkspace<double>>> ws_fd_;
  // job(k, thread) for k = 0 .. count - 1 on up to threads_ threads (the caller and kept helper threads).
  // False if a job threw (no memory): the results are then incomplete.
  bool for_each_run(std::size_t count, const std::function<void(std::size_t, int)>& job);
};

// The paths `--wrt all` means: every differentiable number of the scene except masses of 0 (derived from
// the density) and the loss targets (which a trajectory fit does not read).
std::vector<std::string> all_gradient_paths(const Problem& problem, bool with_loss_targets);

}  // namespace sg
