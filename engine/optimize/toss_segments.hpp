#pragma once
// Identification from measured tosses (DiffMJX Sec. 5.1 and Suppl. C.2, on the ContactNets cube): each
// selected toss is cut into segments of `length` frames; a segment's run starts body 0 from the measured
// state of its first frame (position, orientation, linear and angular velocity) and unrolls length - 1 output
// steps of the scene's integrator; its residuals are the position and the rotation matrix (9 entries, as
// DiffMJX's loss, free of a quaternion's sign) at each later frame against the measured ones. The objective
// is the mean over predicted frames of |p - p_measured|^2 + |R - R_measured|_F^2, so every segment weighs by
// its frames. Length 0 runs each toss whole from its first frame (the paper's trajectory error).
//
// The fitted numbers may tie several scene numbers together: `--wrt model.bodies.0.size` (a vector key whose
// entries start equal) fits one number that every entry takes (a cube's half side).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/measured/toss_data.hpp"

namespace sg {

// One fitted number and the scene numbers that take its value.
struct FitNumber {
  std::string name;
  std::vector<std::string> paths;
};

// --wrt entries as fitted numbers: a differentiable number of the scene, or a vector key whose entries are
// all differentiable and equal. Throws std::invalid_argument with "PATH: why".
std::vector<FitNumber> fit_numbers(const Problem& problem, const std::vector<std::string>& wrt);

// Intrinsic x-y-z Euler angles in degrees (the rigid model's `euler`) of a unit quaternion (w, x, y, z).
void euler_xyz_degrees(const double quat[4], double euler[3]);

// How far whole-toss runs end up from the measurements (the paper's "trajectory error").
struct TrajectoryError {
  double mean_abs = 0.0;           // over every residual: positions (m) and rotation-matrix entries
  double mean_abs_position = 0.0;  // over the position residuals only (m)
  long frames = 0;                 // predicted frames compared
  std::string status = "ok";
};

class TossObjective {
 public:
  // problem: free bodies (model.type rigid), body 0 the tossed one, integrator.dt the frames' spacing.
  // length >= 2 frames per segment (a toss's last frames that make no whole segment are left out), or 0:
  // every toss whole. Throws std::invalid_argument naming the problem (a fitted start number, another dt).
  TossObjective(const Problem& problem, const TossSet& set, const std::vector<int>& tosses, int length,
                std::vector<FitNumber> numbers);

  std::size_t runs() const { return runs_.size(); }
  long samples() const { return samples_; }  // predicted frames in all
  const std::vector<std::string>& paths() const { return names_; }
  std::vector<double> initial_values() const { return start_; }
  // Runs are spread over up to `threads` threads; the numbers do not depend on how many.
  void set_threads(int threads) { threads_ = threads < 1 ? 1 : threads; }
  // Reverse-mode runs are short: each is taped in one piece.
  double objective(const std::vector<double>& values, SolveStats* stats = nullptr);
  ObjectiveGradient forward(const std::vector<double>& values);
  ObjectiveGradient reverse(const std::vector<double>& values);
  ResidualJacobian residuals(const std::vector<double>& values);
  TrajectoryError trajectory_error(const std::vector<double>& values);

 private:
  struct Run {
    int toss = 0;
    long first = 0, frames = 0;  // frame index of the start within the toss, frames including the start
    std::vector<double> start;   // the fixed start numbers (kStartPaths' order)
    TrajectoryData data;
  };
  ObjectiveGradient combine(const std::vector<double>& values, bool reverse);
  ParameterGradient& evaluator(int thread, long steps);
  std::vector<double> expand(const std::vector<double>& values) const;  // one value per scene path
  // job(run, evaluator) for every run, side by side; the evaluator already holds the run's start and data.
  void each_run(const std::function<void(std::size_t, ParameterGradient&)>& job);
  std::string where(std::size_t k) const;  // "toss T, frames a-b"

  Problem problem_;
  std::vector<FitNumber> numbers_;
  std::vector<std::string> names_, flat_paths_;
  std::vector<double> start_;
  std::vector<Run> runs_;
  long samples_ = 0;
  int threads_ = 1;
  std::vector<std::map<long, std::unique_ptr<ParameterGradient>>> evaluators_;  // per thread, per steps
};

}  // namespace sg
