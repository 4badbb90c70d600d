"""Identify a cube's friction from its positions with scipy.optimize.least_squares, on softgrad's residuals
and their Jacobian (forward mode): a Python counterpart of `softgrad fit` (docs/identification.md).

    PYTHONPATH=build/python python3 examples/python/fit_friction.py [--start 0.3]

The data are the cube's own simulated positions (scenes/identify_cube_toss.json: friction 0.6, the truth);
the fit starts from another friction and must come back to it. (From starts between 0.34 and 0.37 the cube
rocks through some 150 contact switches, and the event-corrected gradient spikes there: docs/python.md.)
"""

import argparse
import pathlib

import numpy
import scipy.optimize

import softgrad

ROOT = pathlib.Path(__file__).resolve().parents[2]
FRICTION = "model.bodies.0.friction.0"


def measured_rows(scene):
    """Rows t, body, x, y, z of every output time after the start, from a run of the scene."""
    run = scene.simulate()
    rows = []
    for i, t in enumerate(run["t"][1:], start=1):
        for body, (x, y, z) in enumerate(run["position"][i]):
            rows.append((t, body, x, y, z))
    return numpy.array(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=float, default=0.45, help="the friction the fit starts from")
    args = parser.parse_args()

    truth = softgrad.Scene(ROOT / "scenes" / "identify_cube_toss.json")
    data = measured_rows(truth)
    scene = truth.copy()

    def residuals(p):
        return scene.residuals([FRICTION], data, values=p)[0]

    def jacobian(p):
        return scene.residuals([FRICTION], data, values=p)[1]

    fit = scipy.optimize.least_squares(residuals, [args.start], jac=jacobian, bounds=([0.01], [2.0]),
                                       x_scale="jac")
    print(f"friction {fit.x[0]:.6f} (truth {truth.get(FRICTION)}), from {args.start}, "
          f"{fit.nfev} evaluations, |r| = {numpy.linalg.norm(fit.fun):.3g}, {fit.message}")


if __name__ == "__main__":
    main()
