#pragma once
// The "compute on" choice of the control panel: CPU, GPU (named, disabled with the reason when there is
// none) or automatic. Where sweeps run is a property of the machine, not of the scene, so it is not a
// scene path.
#include <optional>
#include <string>

#include "engine/sweep/device_sweep.hpp"

namespace sg::gui {

// The combo's text for a choice, e.g. "GPU: NVIDIA H100 80GB HBM3" or "auto (CPU: no NVIDIA driver ...)".
std::string device_choice_label(SweepDevice device, const CudaDeviceInfo& gpu, int cpu_threads);

// Draws the combo; the new choice when the user picked another one.
std::optional<SweepDevice> draw_device_choice(SweepDevice current, const CudaDeviceInfo& gpu,
                                              int cpu_threads);

}  // namespace sg::gui
