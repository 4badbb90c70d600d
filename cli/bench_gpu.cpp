#include "cli/bench_gpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "engine/problem/load_problem.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "engine/sweep/sweep2d.hpp"

namespace sg::cli {
namespace {

struct Timed {
  double wall = 0.0, kernels = 0.0;
  std::string scratch;  // where the GPU threads' scratch was
  long failed = 0;      // points that are not "ok"
  bool ran = false;
};

Timed time_sweep(const Problem& problem, SweepDevice device) {
  SweepResult result;
  std::string used, error;
  Timed t;
  if (!run_sweep_on(device, problem, {}, &result, &used, &error)) {
    std::fprintf(stderr, "bench: %s: %s\n", problem.name.c_str(), error.c_str());
    return t;
  }
  t.ran = true;
  t.wall = result.stats.seconds;
  t.kernels = result.stats.kernel_seconds;
  t.scratch = result.stats.gpu_scratch;
  for (const PointResult& p : result.points) t.failed += p.status != "ok";
  return t;
}

// Free-body scenes on their own code, which the kernels run (model.run_as tree, the default, is CPU only).
bool load(const std::string& scenes, const std::string& scene, long points, Problem* out) {
  std::vector<std::string> sets = {"sweep.points=" + std::to_string(points)};
  if (scene != "toy_point_mass") sets.push_back("model.run_as=free_bodies");
  ProblemLoad loaded = load_problem_file(scenes + "/" + scene + ".json", sets);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.errors.c_str());
    return false;
  }
  *out = *loaded.problem;
  return true;
}

// The toy's 2000 points: the first GPU sweep of the process (kernels loaded, memory allocated) and the best
// and median of the next ten, as the GUI re-sweeps on every knob change.
void bench_toy(const std::string& scenes) {
  Problem toy;
  if (!load(scenes, "toy_point_mass", 2000, &toy)) return;
  const Timed first = time_sweep(toy, SweepDevice::cuda);
  std::vector<double> later;
  double kernels = 1e300;
  std::string scratch;
  for (int r = 0; r < 10; ++r) {
    const Timed t = time_sweep(toy, SweepDevice::cuda);
    if (!t.ran) return;
    later.push_back(t.wall);
    scratch = t.scratch;
    kernels = std::min(kernels, t.kernels);
  }
  std::sort(later.begin(), later.end());
  const Timed cpu = time_sweep(toy, SweepDevice::cpu);
  std::printf(
      "| toy_point_mass | %s | 2000 | first %.1f ms; then best %.2f ms, median %.2f ms (kernels %.2f ms) | "
      "%.1f ms | | %s (under 5 ms after the first) |\n",
      scratch.c_str(), 1e3 * first.wall, 1e3 * later.front(), 1e3 * later[later.size() / 2], 1e3 * kernels,
      1e3 * cpu.wall, later[later.size() / 2] < 5e-3 ? "met" : "**not met**");
}

// A 3-D scene at `points` on the GPU (with each place of the threads' scratch) and on all cores; once each
// (a short GPU sweep first loads the kernel).
void bench_scene(const std::string& scenes, const char* scene, long points, double target_seconds) {
  Problem p;
  if (!load(scenes, scene, points, &p)) return;
  Problem warm = p;
  warm.sweep.points = 64;
  Timed gpu[2];
  const char* places[] = {"global", "local"};
  for (int i = 0; i < 2; ++i) {
    setenv("SOFTGRAD_CUDA_SCRATCH", places[i], 1);
    time_sweep(warm, SweepDevice::cuda);
    gpu[i] = time_sweep(p, SweepDevice::cuda);
  }
  unsetenv("SOFTGRAD_CUDA_SCRATCH");
  const Timed cpu = time_sweep(p, SweepDevice::cpu);
  for (int i = 0; i < 2; ++i) {
    if (!gpu[i].ran || !cpu.ran) continue;
    const double speedup = cpu.wall / gpu[i].wall;
    std::printf(
        "| %s | %s | %ld | %.2f s (kernels %.2f s), %ld not ok | %.2f s, %ld not ok | %.1fx | %s (10x, "
        "under %.1f s) |\n",
        scene, gpu[i].scratch.c_str(), points, gpu[i].wall, gpu[i].kernels, gpu[i].failed, cpu.wall,
        cpu.failed, speedup, speedup >= 10.0 && gpu[i].wall < target_seconds ? "met" : "**not met**",
        target_seconds);
  }
}

// The map tab's grid: billiards over the cue force's two components, 100 x 100 on the GPU (after a small
// grid that loads the kernels) and 40 x 25 on all cores.
void bench_map(const std::string& scenes) {
  Problem p;
  if (!load(scenes, "billiards", 200, &p)) return;
  const GridAxis x{"model.bodies.0.forces.0.force.1", -5.0, 5.0, 100},
      y{"model.bodies.0.forces.0.force.0", 3.0, 5.0, 100};
  auto timed = [&](SweepDevice device, const GridAxis& gx, const GridAxis& gy, long* failed) {
    Grid2dResult r;
    std::string used, error;
    if (!run_sweep2d_on(device, p, gx, gy, {}, &r, &used, &error)) {
      std::fprintf(stderr, "bench: map: %s\n", error.c_str());
      return -1.0;
    }
    *failed = r.failed;
    return r.seconds;
  };
  long failed_gpu = 0, failed_cpu = 0;
  timed(SweepDevice::cuda, GridAxis{x.path, x.from, x.to, 8}, GridAxis{y.path, y.from, y.to, 8}, &failed_gpu);
  const double gpu = timed(SweepDevice::cuda, x, y, &failed_gpu);
  const double cpu = timed(SweepDevice::cpu, GridAxis{x.path, x.from, x.to, 40},
                           GridAxis{y.path, y.from, y.to, 25}, &failed_cpu);
  if (gpu < 0.0 || cpu < 0.0) return;
  std::printf(
      "| billiards map (force.1 x force.0) | | 100 x 100 | %.2f s, %ld not ok | 40 x 25: %.2f s (%.2f s per "
      "10,000 points), %ld not ok | %.1fx | %s (under 2 s) |\n",
      gpu, failed_gpu, cpu, cpu * 10.0, failed_cpu, cpu * 10.0 / gpu, gpu < 2.0 ? "met" : "**not met**");
}

}  // namespace

void bench_gpu(const std::string& scenes) {
  const CudaDeviceInfo info = cuda_device_info();
  if (!info.available) {
    std::printf("GPU sweeps: not measured: %s\n", info.reason.c_str());
    return;
  }
  std::printf("GPU sweeps on %s against all %u CPU threads of this machine (AD + central FD per point)\n\n",
              info.name.c_str(), std::thread::hardware_concurrency());
  std::printf(
      "| scene | thread scratch | points | GPU | CPU, all threads | GPU speedup | target |\n"
      "|---|---|---|---|---|---|---|\n");
  // Both places of the threads' scratch (SOFTGRAD_CUDA_SCRATCH, engine/cuda/cuda_sweep.cu), global first:
  // the memory in use after each says what the local kernels' reservation takes.
  std::string memory;
  for (const char* place : {"global", "local"}) {
    setenv("SOFTGRAD_CUDA_SCRATCH", place, 1);
    bench_toy(scenes);
    double used = 0.0, total = 0.0;
    if (cuda_memory_in_use(&used, &total))
      memory += std::string("after the toy with ") + place + " scratch " + std::to_string(used) + " GB; ";
  }
  unsetenv("SOFTGRAD_CUDA_SCRATCH");
  bench_scene(scenes, "toss_box_diffmjx", 10000, 0.7);
  bench_scene(scenes, "billiards", 10000, 1.3);
  bench_map(scenes);
  double used = 0.0, total = 0.0;
  if (cuda_memory_in_use(&used, &total))
    std::printf("\nGPU memory in use (all processes): %sat the end %.1f GB of %.1f GB\n", memory.c_str(),
                used, total);
}

}  // namespace sg::cli
