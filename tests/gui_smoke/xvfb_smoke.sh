#!/usr/bin/env bash
# Smoke test of the real workbench window under Xvfb: it opens, takes keyboard and mouse input (xdotool),
# draws a non-trivial picture (xwd screenshot), sleeps while idle, and quits on Ctrl+Q with exit code 0.
# Usage: xvfb_smoke.sh SOFTGRAD_GUI WORK_DIR. Exit 77 (CTest: skipped, with the reason printed) when Xvfb,
# xdotool or xwd is missing.
set -uo pipefail
gui="$1"
work="$2"
for tool in Xvfb xdotool xwd python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool is not installed (scripts/install-deps installs xvfb, xdotool and x11-apps)"
    exit 77
  fi
done
rm -rf "$work" && mkdir -p "$work"
fail() {
  echo "FAIL: $*"
  exit 1
}

display=""
for n in $(seq 90 120); do
  [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=":$n"; break; }
done
[ -n "$display" ] || fail "no free X display number"
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null
  kill "$xvfb" 2>/dev/null
}
trap cleanup EXIT
export DISPLAY="$display"
for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

# In a sanitizer build, leak checking stays with the headless GUI tests: the X11/GLX client libraries leave
# allocations at exit from modules already unloaded, which no suppression can name.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" HOME="$work/home" XDG_CONFIG_HOME="$work/config" "$gui" \
  >"$work/gui.log" 2>&1 &
app=$!
window=$(timeout 30 xdotool search --sync --onlyvisible --name softgrad | head -1)
[ -n "$window" ] || fail "no softgrad window within 30 s: $(cat "$work/gui.log")"

# Input: the help overlay and back, a click and a drag over the plots, a wheel turn.
# (No window manager: focus the window so that keys reach it as real key events, not synthetic ones.)
xdotool windowfocus --sync "$window"
xdotool key F1 && sleep 0.3 && xdotool key F1
xdotool mousemove --window "$window" 900 300 click 1 mousedown 1 mousemove 950 330 mouseup 1 click 4
sleep 2
kill -0 "$app" 2>/dev/null || fail "the workbench exited after input: $(cat "$work/gui.log")"

# The screen shows the workbench: many distinct colours, not a blank or single-colour frame.
xwd -root -silent -out "$work/screen.xwd" || fail "xwd could not take a screenshot"
colours=$(python3 - "$work/screen.xwd" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
header_size, = struct.unpack(">I", data[:4])
ncolors, = struct.unpack(">I", data[76:80])
pixels = data[header_size + 12 * ncolors:]
print(len({pixels[i:i + 4] for i in range(0, len(pixels) - 4, 4 * 7)}))
PY
)
echo "screenshot: $colours distinct colours"
[ "$colours" -ge 16 ] || fail "the screenshot has only $colours colours"

# Idle: after the first sweep, the window waits for events instead of redrawing (under 10% of a core over
# 5 s; it was 50-94% when it polled).
sleep 3
ticks() { awk '{print $14 + $15}' "/proc/$app/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep 5
after=$(ticks)
percent=$(((after - before) * 100 / (5 * hz)))
echo "idle CPU: ${percent}% of a core over 5 s"
[ "$percent" -lt 10 ] || fail "idle CPU ${percent}% of a core (limit 10%)"

xdotool windowfocus --sync "$window"
xdotool key ctrl+q
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
kill -0 "$app" 2>/dev/null && fail "Ctrl+Q did not quit within 10 s"
wait "$app"
code=$?
app=""
[ "$code" -eq 0 ] || fail "the workbench exited with $code: $(cat "$work/gui.log")"
echo "PASS"
