#!/usr/bin/env bash
# A sweep in the workbench window against the same sweep on the command line (docs/benchmarks.md, "Sweeps in the
# window"): the window under Xvfb, drawn by Mesa's software renderer, as on a machine without a GPU.
# Usage: bench/gui_sweep_time.sh [SCENE...] (default: the box toss and billiards); 3 runs of each, both ways.
set -euo pipefail
cd "$(dirname "$0")/.."
gui=build/gui/softgrad-gui
cli=build/cli/softgrad
for tool in Xvfb "$gui" "$cli"; do
  command -v "$tool" >/dev/null || { echo "bench/gui_sweep_time.sh: $tool is missing (scripts/build, scripts/install-deps)"; exit 1; }
done
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=(scenes/toss_box_diffmjx.json scenes/billiards.json)
display=""
for n in $(seq 90 120); do
  [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=":$n"; break; }
done
work=$(mktemp -d)
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
for scene in "${scenes[@]}"; do
  for run in 1 2 3; do
    DISPLAY="$display" HOME="$work/home" XDG_CONFIG_HOME="$work/config" timeout 300 "$gui" "$scene" --device cpu \
      --exit-after-sweep | grep "sweep of" || echo "window: no sweep time ($scene)"
    "$cli" sweep "$scene" --device cpu | head -1
  done
done
