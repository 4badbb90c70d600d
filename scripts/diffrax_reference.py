#!/usr/bin/env python3
"""Diffrax 0.7.2's step counts and losses on the 1-D toy, for tests/data/diffrax_toy_reference.json.

Needs JAX (float64) and Diffrax 0.7.2; runs on the CPU in a few minutes (16 cores, --jobs 12: under a minute):

    pip install "jax[cpu]" diffrax==0.7.2
    python3 scripts/diffrax_reference.py            # writes tests/data/diffrax_toy_reference.json

The toy is scenes/toy_point_mass.json (engine-notes section 7) solved adaptively with the engine's ODE for the
particle model: state y = (q_x, q_y, q_z, v_x, v_y, v_z), q' = v, v' = g + e_z f / m with the penalty force
f = -k r - c v_z while r = q_z - (plane height + radius) < 0, else 0. The loss is |q_z(T) - target|.
Every sweep point is solved with Tsit5, Dopri5, Bosh3 and Dopri8 at rtol = atol = 1e-4, 1e-6, 1e-8, dt0 = the
scene's dt, in two step-size configurations (the committed files predate Dopri8 and hold the first three):

- "step_to_outputs": PIDController (the scene's default I-controller) in ClipStepSizeController with
  step_ts = the output grid k dt, k = 1..steps: the engine's default (integrator.step_to_outputs = true).
- "diffmjx": PIDController(pcoeff=0.2, icoeff=0.4) with no step_ts, as DiffMJX's mjx_diffrax.multistep
  sets it up (outputs interpolated, steps cross output times): integrator.step_to_outputs = false.

tests/engine/test_diffrax_reference.cpp reads the file and compares the engine (integrator.events = false) point
by point: step counts and losses, to tolerances that depend on the backend the reference ran on (XLA:CPU rounds
the stage sums differently from XLA:GPU, and Diffrax's two runs differ from each other; docs/engine.md).
Committed: tests/data/diffrax_toy_reference.json (JAX_PLATFORMS=cpu, all points) and
tests/data/diffrax_toy_reference_gpu.json (JAX_PLATFORMS=cuda, --points 100). --jobs N runs the 18
configurations in N processes (24 with Dopri8); scripts/device-check runs it on a lent GPU machine.
(scripts/diffrax_loop_model.py writes the same file from a plain-Python model of Diffrax's loop.)
"""

import argparse
import json
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
METHODS = ("tsit5", "dopri5", "bosh3", "dopri8")
CONFIGS = ("step_to_outputs", "diffmjx")
TOLERANCES = [1e-4, 1e-6, 1e-8]
MAX_STEPS = 4096  # the scene's default integrator.max_steps (and Diffrax's)
PID = {"step_to_outputs": (0.0, 1.0), "diffmjx": (0.2, 0.4)}  # (pcoeff, icoeff)


def load_toy(path):
    scene = json.loads(pathlib.Path(path).read_text())
    model, contact, integ = scene["model"], scene["contact"], scene["integrator"]
    (particle,) = model["particles"]
    (term,) = scene["loss"]["terms"]
    assert contact["model"] == "penalty" and model["plane"].get("enabled", True)
    assert term["quantity"] == "position" and term["axis"] == "z" and term["kind"] == "abs"
    assert scene["sweep"]["parameter"] == "model.particles.0.pos.2"  # the start height q0
    return {
        "gravity": [float(g) for g in model["gravity"]],
        "ground": float(model["plane"]["height"]) + float(particle["radius"]),
        "mass": float(particle["mass"]),
        "k": float(contact["penalty"]["k"]),
        "c": float(contact["penalty"]["c"]),
        "pos": [float(p) for p in particle["pos"]],
        "vel": [float(v) for v in particle["vel"]],
        "dt": float(integ["dt"]),
        "steps": int(integ["steps"]),
        "target": float(term["target"]),
        "weight": float(term.get("weight", 1.0)),
        "sweep": scene["sweep"],
    }


def sweep_values(sweep):
    # As SweepSpec::value_at: from + (to - from) * i / (points - 1), in the same order of operations.
    lo, hi, n = float(sweep["from"]), float(sweep["to"]), int(sweep["points"])
    if n <= 1:
        return [lo]
    return [lo + (hi - lo) * float(i) / float(n - 1) for i in range(n)]


def output_grid(toy):
    # t_k = dt * k for k = 1..steps, as StepGrid::time; the last is t1.
    return [toy["dt"] * float(k) for k in range(1, toy["steps"] + 1)]


def config_entry(config, method, tol, accepted, rejected, losses, ok):
    return {
        "config": config,
        "method": method,
        "rtol": tol,
        "atol": tol,
        "pcoeff": PID[config][0],
        "icoeff": PID[config][1],
        "dcoeff": 0.0,
        "step_to_outputs": config == "step_to_outputs",
        "max_steps": MAX_STEPS,
        "accepted": accepted,
        "rejected": rejected,
        "loss": losses,
        "ok": ok,
    }


def write_reference(path, toy, sweep, values, configs, versions, generator):
    out = {
        "generator": generator,
        "scene": "scenes/toy_point_mass.json",
        "versions": versions,
        "sweep_parameter": sweep["parameter"],
        "dt0": toy["dt"],
        "t1": output_grid(toy)[-1],
        "values": values,
        "configs": configs,
    }
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def parse_args(description, default_out):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--scene", default=str(ROOT / "scenes" / "toy_point_mass.json"))
    parser.add_argument("--out", default=str(default_out))
    parser.add_argument("--points", type=int, default=None, help="fewer sweep points (default: the scene's)")
    parser.add_argument("--jobs", type=int, default=1, help="configurations solved side by side in processes")
    return parser.parse_args()


def make_vector_field(toy):
    import jax.numpy as jnp

    gx, gy, gz = toy["gravity"]
    k, c, mass, ground = toy["k"], toy["c"], toy["mass"], toy["ground"]

    def vector_field(t, y, args):
        del t, args
        r = y[2] - ground
        force = jnp.where(r < 0.0, -k * r - c * y[5], 0.0)
        return jnp.stack([y[3], y[4], y[5], jnp.asarray(gx), jnp.asarray(gy), gz + force / mass])

    return vector_field


def make_solver(toy, method, tol, config):
    import diffrax as dfx
    import jax
    import jax.numpy as jnp

    dt = toy["dt"]
    grid = output_grid(toy)
    t1 = grid[-1]
    pcoeff, icoeff = PID[config]
    pid = dfx.PIDController(rtol=tol, atol=tol, pcoeff=pcoeff, icoeff=icoeff)
    if config == "step_to_outputs":
        controller = dfx.ClipStepSizeController(pid, step_ts=jnp.asarray(grid, dtype=jnp.float64))
    else:
        controller = pid
    term = dfx.ODETerm(make_vector_field(toy))
    solver = {"tsit5": dfx.Tsit5, "dopri5": dfx.Dopri5, "bosh3": dfx.Bosh3, "dopri8": dfx.Dopri8}[method]()
    y_rest = toy["pos"][:2]

    @jax.jit
    def solve(q0):
        vel = [jnp.asarray(v) for v in toy["vel"]]
        y0 = jnp.stack([jnp.asarray(y_rest[0]), jnp.asarray(y_rest[1]), q0] + vel)
        sol = dfx.diffeqsolve(
            term,
            solver,
            t0=0.0,
            t1=t1,
            dt0=dt,
            y0=y0,
            stepsize_controller=controller,
            saveat=dfx.SaveAt(t1=True),
            max_steps=MAX_STEPS,
            throw=False,
        )
        loss = toy["weight"] * jnp.abs(sol.ys[-1, 2] - toy["target"])
        ok = sol.result == dfx.RESULTS.successful
        return loss, sol.stats["num_accepted_steps"], sol.stats["num_rejected_steps"], ok

    return solve


def run_config(toy, values, method, tol, config):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)  # again: a spawned worker did not run main()
    solve = make_solver(toy, method, tol, config)
    accepted, rejected, losses, ok = [], [], [], []
    for q0 in values:
        loss, acc, rej, good = solve(jnp.asarray(q0, dtype=jnp.float64))
        accepted.append(int(acc))
        rejected.append(int(rej))
        losses.append(float(loss) if math.isfinite(float(loss)) else None)
        ok.append(bool(good))
    return config_entry(config, method, tol, accepted, rejected, losses, ok)


def generate(args, run_config, versions, generator, methods=METHODS):
    """Runs run_config(toy, values, method, tol, config) for every configuration and writes the reference.

    With --jobs N > 1 the configurations run in N spawned processes (run_config must be a module-level
    function); the file lists them in the same order either way."""
    toy = load_toy(args.scene)
    sweep = dict(toy["sweep"])
    if args.points is not None:
        sweep["points"] = args.points
    values = sweep_values(sweep)
    work = [(method, tol, config) for config in CONFIGS for method in methods for tol in TOLERANCES]
    if args.jobs > 1:
        import concurrent.futures
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # JAX's threads do not survive fork
        with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
            futures = [pool.submit(run_config, toy, values, m, t, c) for m, t, c in work]
            configs = [f.result() for f in futures]
    else:
        configs = []
        for method, tol, config in work:
            print(f"{config} {method} {tol:g}", file=sys.stderr)
            configs.append(run_config(toy, values, method, tol, config))
    write_reference(args.out, toy, sweep, values, configs, versions, generator)


def main():
    args = parse_args(__doc__.splitlines()[0], ROOT / "tests" / "data" / "diffrax_toy_reference.json")
    import jax

    jax.config.update("jax_enable_x64", True)
    import diffrax as dfx

    if dfx.__version__ != "0.7.2":
        print(f"warning: Diffrax {dfx.__version__}, the reference is defined for 0.7.2", file=sys.stderr)
    versions = {"diffrax": dfx.__version__, "jax": jax.__version__, "backend": jax.default_backend()}
    generate(args, run_config, versions, "scripts/diffrax_reference.py")


if __name__ == "__main__":
    main()
