#include "gui/panels/device_choice.hpp"

#include <imgui.h>

namespace sg::gui {

std::string device_choice_label(SweepDevice device, const CudaDeviceInfo& gpu, int cpu_threads) {
  const std::string cpu =
      "CPU (" + std::to_string(cpu_threads) + (cpu_threads == 1 ? " thread)" : " threads)");
  switch (device) {
    case SweepDevice::cpu:
      return cpu;
    case SweepDevice::cuda:
      return gpu.available ? "GPU: " + gpu.name : "GPU (none)";
    case SweepDevice::automatic:
      if (!gpu.available) return "auto: " + cpu;
      return "auto: GPU " + gpu.name + " from " + std::to_string(kGpuPointsPerCpuThread * cpu_threads) +
             " points, else " + cpu;
  }
  return cpu;
}

std::optional<SweepDevice> draw_device_choice(SweepDevice current, const CudaDeviceInfo& gpu,
                                              int cpu_threads) {
  std::optional<SweepDevice> picked;
  if (ImGui::BeginCombo("compute on", device_choice_label(current, gpu, cpu_threads).c_str())) {
    for (SweepDevice d : {SweepDevice::automatic, SweepDevice::cpu, SweepDevice::cuda}) {
      const bool usable = d != SweepDevice::cuda || gpu.available;
      if (ImGui::Selectable(device_choice_label(d, gpu, cpu_threads).c_str(), d == current,
                            usable ? 0 : ImGuiSelectableFlags_Disabled) &&
          d != current)
        picked = d;
      if (!usable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", gpu.reason.c_str());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Where sweep points run. The GPU runs each run of a point on its own thread, through the same "
        "engine\n"
        "code; a GPU thread is about 300x slower than a CPU core, so auto takes the GPU only\n"
        "for sweeps that large. Randomized smoothing, reverse mode and backsolve always run on the CPU.%s%s",
        gpu.available ? "" : "\nGPU: ", gpu.available ? "" : gpu.reason.c_str());
  return picked;
}

}  // namespace sg::gui
