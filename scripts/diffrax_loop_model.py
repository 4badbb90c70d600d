#!/usr/bin/env python3
"""A plain-Python model of Diffrax 0.7.2's adaptive loop on the 1-D toy, written from its source.

It follows diffeqsolve's loop (_integrate.py: the first step t0 + dt0, _clip_to_end with its 100-ulp floor,
`tprev < t1`), PIDController.adapt_step_size (pid.py: the scaled RMS error, the factor and its clipping, the
history), ClipStepSizeController (clip.py: step_ts, _bump_next_t0, the clip of the next step's end) and the
explicit FSAL Runge-Kutta step (runge_kutta.py: stages and error estimate as sums of the increments
k_j = h f_j), in IEEE doubles with sums in stage order. It needs no JAX and writes the same JSON as
scripts/diffrax_reference.py:

    python3 scripts/diffrax_loop_model.py --out /tmp/model.json
    SOFTGRAD_DIFFRAX_REFERENCE=/tmp/model.json build/tests/test_engine -tc='*Diffrax 0.7.2*'

The engine agrees with it bit for bit. Where the real reference disagrees and this model does not, the cause
is Diffrax's arithmetic under XLA (summation order, fused multiply-adds, pow), not the stepping rules.
"""

import math
import sys

sys.dont_write_bytecode = True  # importing the generator's helpers leaves no __pycache__ in scripts/

from diffrax_reference import (  # noqa: E402
    MAX_STEPS,
    PID,
    config_entry,
    generate,
    output_grid,
    parse_args,
)

SAFETY, FACTOR_MIN, FACTOR_MAX = 0.9, 0.2, 10.0  # PIDController's defaults

# The tableaus' stage rows (a_lower), error weights (b_error) and order, as the doubles Diffrax builds.
TABLEAUS = {
    "tsit5": (
        [
            [0.161],
            [-0.008480655492356989, 0.335480655492357],
            [2.8971530571054935, -6.359448489975075, 4.3622954328695815],
            [5.325864828439257, -11.748883564062828, 7.4955393428898365, -0.09249506636175525],
            [5.86145544294642, -12.92096931784711, 8.159367898576159, -0.071584973281401,
             -0.028269050394068383],
            [0.09646076681806523, 0.01, 0.4798896504144996, 1.379008574103742, -3.290069515436081,
             2.324710524099774],
        ],
        [
            0.0017800110522257773,
            0.0008164344596567463,
            -0.007880878010261994,
            0.1447110071732629,
            -0.5823571654525552,
            0.45808210592918686,
            -1 / 66,
        ],
        5,
    ),
    "dopri5": (
        [
            [1 / 5],
            [3 / 40, 9 / 40],
            [44 / 45, -56 / 15, 32 / 9],
            [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
            [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
            [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84],
        ],
        [
            35 / 384 - 1951 / 21600,
            0,
            500 / 1113 - 22642 / 50085,
            125 / 192 - 451 / 720,
            -2187 / 6784 - -12231 / 42400,
            11 / 84 - 649 / 6300,
            -1.0 / 60.0,
        ],
        5,
    ),
    "bosh3": (
        [[1 / 2], [0.0, 3 / 4], [2 / 9, 1 / 3, 4 / 9]],
        [2 / 9 - 7 / 24, 1 / 3 - 1 / 4, 4 / 9 - 1 / 3, -1 / 8],
        3,
    ),
}


def vector_field(toy):
    gx, gy, gz = toy["gravity"]
    k, c, mass, ground = toy["k"], toy["c"], toy["mass"], toy["ground"]

    def f(y):
        r = y[2] - ground
        force = -k * r - c * y[5] if r < 0.0 else 0.0
        return [y[3], y[4], y[5], gx, gy, gz + force / mass]

    return f


def dot(weights, ks, i):
    total = 0.0
    for w, k in zip(weights, ks):
        total = total + w * k[i]
    return total


def rk_step(f, tableau, y0, f0, h):
    """Stages on the increments k_j = f_j h; y1 is the last stage (FSAL, a_last = b), with f(y1)."""
    rows, b_error, _ = tableau
    ks = [[fi * h for fi in f0]]
    y, fy = y0, f0
    for row in rows:
        y = [y0[i] + dot(row, ks, i) for i in range(len(y0))]
        fy = f(y)
        ks.append([fi * h for fi in fy])
    err = [dot(b_error, ks, i) for i in range(len(y0))]
    return y, fy, err


def rms_norm(x):
    return math.sqrt(sum(v * v for v in x)) / math.sqrt(len(x))  # lineax: two_norm(x) / sqrt(size)


def bumped(t, stops):
    # ClipStepSizeController's _bump_next_t0: a start on a stop (or one ulp before it) counts as past it.
    up = math.nextafter(t, math.inf)
    out = math.nextafter(up, math.inf) if up in stops else t
    return up if t in stops else out


def clip_to_stops(t_start, t_end, stops):
    later = [s for s in stops if s > t_start]
    return min(later[0], t_end) if later else t_end


def solve(toy, method, tol, config, q0):
    tableau = TABLEAUS[method]
    order = tableau[2]
    pcoeff, icoeff = PID[config]
    f = vector_field(toy)
    grid = output_grid(toy)
    t1 = grid[-1]
    stops = set(grid) if config == "step_to_outputs" else None
    t1_floor = t1
    for _ in range(100):
        t1_floor = math.nextafter(t1_floor, -math.inf)

    y = [toy["pos"][0], toy["pos"][1], q0] + list(toy["vel"])
    fy = f(y)
    t_prev, t_next = 0.0, 0.0 + toy["dt"]
    if stops is not None:
        t_next = clip_to_stops(t_prev, t_next, grid)
    t_next = min(t_next, t1)
    prev_inv = 1.0
    accepted = rejected = 0
    while t_prev < t1:
        if accepted + rejected >= MAX_STEPS:
            return accepted, rejected, None, False
        y1, f1, err = rk_step(f, tableau, y, fy, t_next - t_prev)
        err = [math.inf if math.isnan(e) else e for e in err]
        y1_scale = y if any(math.isnan(v) for v in y1) else y1
        scaled = rms_norm([e / (tol + max(abs(a), abs(b)) * tol) for e, a, b in zip(err, y, y1_scale)])
        keep = scaled < 1
        inv = math.inf if scaled == 0 else 1 / scaled
        factor = SAFETY * inv ** ((icoeff + pcoeff + 0.0) / order)
        coeff2 = -(pcoeff + 2 * 0.0) / order
        if coeff2 != 0:
            factor = factor * prev_inv**coeff2
        low, high = (1, FACTOR_MAX) if keep else (FACTOR_MIN, SAFETY)
        factor = min(max(factor, low), high)
        dt = (t_next - t_prev) * factor
        if inv == 0 or math.isinf(inv):
            inv = 1.0
        if keep:
            prev_inv = inv
            y, fy = y1, f1
            accepted += 1
        else:
            rejected += 1
        next_t0 = t_next if keep else t_prev
        next_t1 = next_t0 + dt
        if stops is not None:
            next_t1 = clip_to_stops(bumped(next_t0, stops), next_t1, grid)
        t_prev = min(next_t0, t1)
        if next_t1 > t1_floor:
            next_t1 = t1 if keep else t_prev + 0.5 * (t1 - t_prev)
        t_next = next_t1
    loss = toy["weight"] * abs(y[2] - toy["target"])
    return accepted, rejected, loss, True


def run_config(toy, values, method, tol, config):
    runs = [solve(toy, method, tol, config, q0) for q0 in values]
    return config_entry(config, method, tol, *map(list, zip(*runs)))


def main():
    args = parse_args(__doc__.splitlines()[0], "/tmp/diffrax_loop_model.json")
    generate(args, run_config, {"model of": "diffrax 0.7.2"}, "scripts/diffrax_loop_model.py", tuple(TABLEAUS))


if __name__ == "__main__":
    main()
