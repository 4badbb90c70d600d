// `softgrad sweep --device`: the choice of CPU or GPU, and what happens when the GPU cannot be had.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "engine/sweep/device_sweep.hpp"

using sg::test::read_json;
using sg::test::run_softgrad;
using sg::test::scene;

namespace {

// The sweep's numbers without its timing.
nlohmann::json numbers(const std::string& path) {
  nlohmann::json j = read_json(path);
  j["stats"].erase("seconds");
  return j;
}

// `command` with --device auto and with --device cpu: both run on the CPU (too few points for the GPU) and
// write the same numbers.
void check_auto_is_cpu(const std::string& command, const std::string& out) {
  const auto a = run_softgrad(command + " --device auto --out " + out + "_auto.json");
  const auto c = run_softgrad(command + " --device cpu --out " + out + "_cpu.json");
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  REQUIRE(c.exit_code == 0);
  CHECK(a.output.find("(CUDA)") == std::string::npos);
  CHECK(numbers(out + "_auto.json") == numbers(out + "_cpu.json"));
}

}  // namespace

TEST_CASE("sweep --device cuda without a usable GPU says why and exits 2") {
  const sg::CudaDeviceInfo info = sg::cuda_device_info();
  if (info.available) {
    std::printf("SOFTGRAD_TEST_SKIPPED: this machine has a GPU (%s)\n", info.name.c_str());
    return;
  }
  const auto r =
      run_softgrad("sweep " + scene("toy_point_mass.json") + " --set sweep.points=5 --device cuda");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("--device cuda: ") != std::string::npos);
  CHECK(r.output.find(info.reason) != std::string::npos);
}

// Six points are too few for the GPU (gpu_pays_off), so this holds with and without one.
TEST_CASE("sweep --device auto runs a small sweep on the CPU and gives the CPU's numbers") {
  check_auto_is_cpu("sweep " + scene("toss_box_diffmjx.json") + " --set sweep.points=6 --threads 2",
                    sg::test::binary_dir() + "/sweep_device");
}

TEST_CASE("sweep --device auto keeps a CPU-only scene on the CPU, and the GPU line names the device") {
  const sg::CudaDeviceInfo info = sg::cuda_device_info();
  // Randomized smoothing is CPU-only: auto must not refuse it, whatever the machine has.
  const auto r = run_softgrad("sweep " + scene("falling_mass.json") +
                              " --set sweep.points=4 --set gradient.smoothing.samples=8 --device auto");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("(CUDA)") == std::string::npos);
  if (!info.available) return;
  // A small sweep stays on the CPU and says from how many points the GPU would be used; that many go to it.
  const std::string toy = "sweep " + scene("toy_point_mass.json") + " --threads 1 --device auto";
  const auto small = run_softgrad(toy + " --set sweep.points=5");
  CHECK(small.exit_code == 0);
  CHECK(small.output.find("device: CPU (auto: the GPU pays off from " +
                          std::to_string(sg::kGpuPointsPerCpuThread) + " points with 1 CPU thread)") !=
        std::string::npos);
  const auto g = run_softgrad(toy + " --set sweep.points=" + std::to_string(sg::kGpuPointsPerCpuThread));
  CHECK(g.exit_code == 0);
  CHECK(g.output.find("device: " + info.name + " (CUDA)") != std::string::npos);
}

TEST_CASE("sweep --device refuses a name it does not know") {
  const auto r = run_softgrad("sweep " + scene("toy_point_mass.json") + " --device gpu");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("--device") != std::string::npos);
}

TEST_CASE("sweep2d --device: cuda says why without a GPU, auto keeps a small grid on the CPU's numbers") {
  const sg::CudaDeviceInfo info = sg::cuda_device_info();
  const std::string grid = "sweep2d " + scene("toy_point_mass.json") +
                           " --set integrator.type=tsit5 --x model.particles.0.pos.2 0.2 2 4"
                           " --y model.particles.0.vel.2 -2 -0.5 3 --threads 2";
  check_auto_is_cpu(grid, sg::test::binary_dir() + "/sweep2d_device");
  const auto g = run_softgrad(grid + " --device cuda");
  INFO(g.output);
  if (!info.available) {
    CHECK(g.exit_code == 2);
    CHECK(g.output.find("--device cuda: " + info.reason) != std::string::npos);
  } else {
    CHECK(g.exit_code == 0);
    CHECK(g.output.find("device: " + info.name + " (CUDA)") != std::string::npos);
  }
}
