#pragma once
// Measured positions to fit a simulation to: a CSV file with a header line `t,body,x,y,z` and one row per
// body and time (seconds; body index as in the scene; world-frame position in metres). The times must lie
// on the scene's output grid (integrator.dt), within the horizon. The mismatch observer sums the squared
// position errors at those output times during a run, with forward-mode tangents when S is a dual.
#include <string>
#include <vector>

#include "engine/integrate/observer.hpp"
#include "engine/model/particle_system.hpp"
#include "engine/model/rigid_system.hpp"
#include "engine/model/tree_system.hpp"

namespace sg {

struct PositionSample {
  int body = 0;
  double pos[3] = {0.0, 0.0, 0.0};
  // Measured orientation too (free bodies only: measured tosses, engine/io/toss_data.hpp): its rotation
  // matrix, row-major, compared entry by entry (9 residuals more, as DiffMJX's loss on rotation matrices).
  bool has_rotation = false;
  double rot[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
};

struct TrajectoryData {
  std::string source;                                // the file, for messages
  std::vector<std::vector<PositionSample>> by_step;  // per output index 0..steps: the samples at that time
  long count = 0;                                    // samples in all
};

// The residuals a run against `data` gives: 3 per sample, 9 more per sample with a rotation.
inline long residual_count(const TrajectoryData& data) {
  long n = 0;
  for (const std::vector<PositionSample>& at : data.by_step)
    for (const PositionSample& s : at) n += s.has_rotation ? 12 : 3;
  return n;
}

// Reads and checks a data file against the grid (dt, steps) and the number of bodies. On failure returns
// false with "file:line: message" in *error.
bool read_trajectory_data(const std::string& path, double dt, long steps, int bodies, TrajectoryData* out,
                          std::string* error);
// The same from text (source names it in messages).
bool parse_trajectory_data(const std::string& text, const std::string& source, double dt, long steps,
                           int bodies, TrajectoryData* out, std::string* error);

// Accumulates sum over samples of |position - measured|^2, divided by the sample count at the end.
template <class S>
struct DataMismatch {
  const TrajectoryData* data = nullptr;
  const RigidSystem<S>* rigid = nullptr;
  const ParticleSystem<S>* particles = nullptr;
  const TreeSystem<S>* tree = nullptr;
  S sum = 0.0;
  std::vector<S>* residuals = nullptr;  // when set: every position error, in data order (3 per sample)

  void bind(const RigidSystem<S>& sys) { rigid = &sys; }
  void bind(const ParticleSystem<S>& sys) { particles = &sys; }
  void bind(const TreeSystem<S>& sys) { tree = &sys; }
  S position(const S* y, int body, int axis) const {
    if (rigid) return rigid->coordinate(y, 0, body, axis);
    if (tree) return tree->coordinate(y, 0, body, axis);
    return particles->coordinate(y, 0, body, axis);
  }
  void add(const S& e) {
    sum += e * e;
    if (residuals) residuals->push_back(e);
  }
  void on_output(long i, double, const S* y, int) {
    if (i < 0 || i >= static_cast<long>(data->by_step.size())) return;
    for (const PositionSample& s : data->by_step[static_cast<std::size_t>(i)]) {
      for (int axis = 0; axis < 3; ++axis) add(position(y, s.body, axis) - s.pos[axis]);
      if (!s.has_rotation || !(rigid || tree)) continue;  // the readers refuse rotations of particles
      // A tree's pose is loaded by position() above (free bodies run as a tree: model.run_as tree).
      const Mat3<S> r = rigid ? decode_body(y, s.body).rot : to_mat3(tree->data().xquat[s.body + 1]);
      for (int k = 0; k < 9; ++k) add(r.m[k / 3][k % 3] - s.rot[k]);
    }
  }
  void on_accept(double) {}
  void on_reject(double) {}
  void on_event(double, const EventId&) {}
  S& carried() { return sum; }  // the value a checkpointed adjoint carries across segments
  S mean() const { return data->count > 0 ? sum / static_cast<double>(data->count) : S(0.0); }
};

}  // namespace sg
