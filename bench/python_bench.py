"""The Python module's own cost (docs/benchmarks.md, "Python module"): scene.simulate() on the toy against the same
C++ call timed inside C++, and the 2000-point toy sweep from Python against run_sweep timed inside C++ (what
`softgrad bench` reports).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py
"""

import pathlib
import time

import softgrad
from softgrad import _softgrad

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    scene = softgrad.Scene(ROOT / "scenes" / "toy_point_mass.json")
    calls = 20000
    inside = _softgrad._time_simulate(scene._s, 1.0, calls)
    scene.simulate(1.0)
    start = time.perf_counter()
    for _ in range(calls):
        scene.simulate(1.0)
    outside = (time.perf_counter() - start) / calls
    print(f"| toy simulate (20 steps), one call | {1e6 * inside:.1f} us in C++ | {1e6 * outside:.1f} us from Python "
          f"| +{1e6 * (outside - inside):.1f} us |")

    # Interleaved, best of 30 each: the machine's load drifts less between the two than across two blocks.
    inside, best = 1e30, 1e30
    scene.sweep(device="cpu")
    for _ in range(30):
        inside = min(inside, _softgrad._time_sweep(scene._s, 1))
        start = time.perf_counter()
        scene.sweep(device="cpu")
        best = min(best, time.perf_counter() - start)
    print(f"| toy sweep, 2000 points, AD + FD, {softgrad.available_cores()} cores | {1e3 * inside:.2f} ms in C++ "
          f"| {1e3 * best:.2f} ms from Python | {100 * (best / inside - 1):+.1f}% |")


if __name__ == "__main__":
    main()
