"""softgrad.Scene's runs: trajectories, sweeps and gradients equal to the CLI's JSON for the same scene (the same
code runs: bit for bit), failures as SimulationError, progress, Ctrl-C, threads and memory."""

import _thread
import math
import threading
import time

import numpy
import pytest

import softgrad
from conftest import scene_path

TOY = scene_path("toy_point_mass.json")
BOX = scene_path("toss_box_diffmjx.json")


def as_array(values):
    return numpy.array([math.nan if v is None else v for v in values], dtype=float)


def same_numbers(a, b):
    """Equal element by element, NaN where the other is NaN (the CLI writes NaN as null)."""
    a, b = numpy.asarray(a, dtype=float), numpy.asarray(b, dtype=float)
    return a.shape == b.shape and bool(numpy.all((a == b) | (numpy.isnan(a) & numpy.isnan(b))))


def test_simulate_returns_the_trajectory_as_the_cli_writes_it(cli):
    scene = softgrad.Scene(BOX, set={"integrator.steps": 60})
    run = scene.simulate(value=-2.0)
    ref = cli("simulate", BOX, "--set", "integrator.steps=60", "--value=-2")
    assert run["status"] == "ok" and run["layout"] == "rigid"
    assert run["loss"] == ref["loss"] and run["grad"] == ref["grad"]
    assert same_numbers(run["t"], ref["t"])
    assert same_numbers(run["q"], ref["q"]) and same_numbers(run["v"], ref["v"])
    assert run["position"].shape == (61, 1, 3) and run["quaternion"].shape == (61, 1, 4)
    assert numpy.allclose(numpy.linalg.norm(run["quaternion"], axis=2), 1.0, atol=1e-12)
    assert run["position"][0, 0, 2] > run["position"][-1, 0, 2]  # it falls
    assert run["contacts"].max() >= 1  # and lands
    assert len(run["dt"]) == run["accepted"]


def test_simulate_default_value_is_sweep_from_or_the_value_set_on_it():
    scene = softgrad.Scene(TOY)
    assert scene.simulate()["value"] == 0.0
    scene.set("model.particles.0.pos.2", 1.25)
    assert scene.simulate()["value"] == 1.25
    assert scene.simulate(value=2)["value"] == 2.0
    with pytest.raises(ValueError, match="finite"):
        scene.simulate(value=math.nan)


def test_sweep_equals_the_clis_sweep_bit_for_bit(cli):
    scene = softgrad.Scene(BOX, set={"sweep.points": 12})
    got = scene.sweep(device="cpu")
    ref = cli("sweep", BOX, "--set", "sweep.points=12")
    for key in ("values", "loss", "grad", "grad_fd"):
        assert same_numbers(got[key], as_array(ref[key])), key
    assert got["status"] == ref["status"]
    assert got["stats"]["grad_rel_err_median"] == ref["stats"]["grad_rel_err_median"]
    assert got["stats"]["points"] == 12 and got["device"] == "cpu"
    assert numpy.all(numpy.isnan(got["grad_ref"]))  # no tight reference asked for


def test_sweep_points_argument_and_its_validation():
    scene = softgrad.Scene(TOY)
    assert len(scene.sweep(points=5)["values"]) == 5
    assert scene.get("sweep.points") == 2000  # the argument does not change the scene
    with pytest.raises(ValueError, match=r"sweep\.points"):
        scene.sweep(points=0)
    with pytest.raises(ValueError, match="device"):
        scene.sweep(points=5, device="tpu")
    with pytest.raises(ValueError, match="threads"):
        scene.sweep(points=5, threads=-1)


def test_gradient_equals_the_clis_and_the_modes_agree(cli):
    # Tight tolerances, so that central differences of the adaptive run are accurate to 1e-3. (Not the plane's
    # friction: a pair takes the larger of two equal frictions, a kink where FD gives half of AD's one side.)
    sets = {"integrator.steps": 60, "integrator.rtol": 1e-11, "integrator.atol": 1e-11,
            "integrator.max_steps": 100000}
    scene = softgrad.Scene(BOX, set=sets)
    wrt = ["model.bodies.0.vel.2", "model.bodies.0.angvel.0", "model.gravity.2"]
    forward = scene.gradient(wrt, mode="forward")
    ref = cli("gradient", BOX, *[arg for k, v in sets.items() for arg in ("--set", f"{k}={v}")], "--mode",
              "forward", *[arg for path in wrt for arg in ("--wrt", path)])
    assert forward == {row["path"]: row["forward"] for row in ref["parameters"]}
    reverse = scene.gradient(wrt, mode="reverse")
    fd = scene.gradient(wrt, mode="fd", fd_eps=1e-6)
    for path in wrt:
        scale = max(abs(forward[path]), 1e-8)
        assert abs(reverse[path] - forward[path]) <= 1e-9 * scale, path
        assert abs(fd[path] - forward[path]) <= 1e-3 * scale, path


def test_gradient_all_and_value_and_grad():
    scene = softgrad.Scene(TOY, set={"sweep.points": 3})
    everything = scene.gradient("all", value=2.5)
    assert set(scene.paths) <= set(everything)
    # Above the ground all the way (2.5 - 2 = 0.5 > 0): loss |q_N - 1| = 0.5, d/dq0 = -1.
    loss, grad = scene.value_and_grad(["model.particles.0.pos.2"], [2.5], mode="reverse")
    assert loss == pytest.approx(0.5, abs=1e-12)
    assert grad.tolist() == pytest.approx([-1.0], abs=1e-12)
    with pytest.raises(ValueError, match="model.particles.0.poss.2"):
        scene.gradient(["model.particles.0.poss.2"])
    with pytest.raises(ValueError, match="mode"):
        scene.gradient(["model.particles.0.pos.2"], mode="sideways")
    with pytest.raises(ValueError, match="backsolve"):
        scene.gradient(["model.particles.0.pos.2"], mode="backsolve")  # fixed-step Euler
    with pytest.raises(ValueError, match="one per path"):
        scene.value_and_grad(["model.particles.0.pos.2"], [1.0, 2.0])


def test_a_run_that_fails_raises_unless_asked_not_to():
    scene = softgrad.Scene(BOX, set={"integrator.max_steps": 3})
    with pytest.raises(softgrad.SimulationError, match="toss_box_diffmjx.json"):
        scene.simulate(value=-2)
    run = scene.simulate(value=-2, check=False)
    assert run["status"] != "ok"
    with pytest.raises(softgrad.SimulationError):
        scene.gradient(["model.bodies.0.vel.2"])
    sweep = scene.sweep(points=3, device="cpu")
    assert all(s != "ok" for s in sweep["status"]) and sweep["stats"]["failed"] == 3


def test_progress_is_reported_from_the_calling_thread():
    calls = []
    caller = threading.get_ident()
    scene = softgrad.Scene(BOX, set={"sweep.points": 16})
    scene.sweep(device="cpu", progress=lambda done, total: calls.append((done, total, threading.get_ident())))
    assert calls and calls[-1][:2] == (16, 16)
    assert all(ident == caller for _, _, ident in calls)
    assert [done for done, _, _ in calls] == sorted(done for done, _, _ in calls)


def test_an_exception_in_progress_cancels_the_sweep():
    scene = softgrad.Scene(BOX, set={"sweep.points": 400})

    def stop(done, total):
        raise RuntimeError("enough")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        scene.sweep(device="cpu", progress=stop)
    assert time.monotonic() - start < 30


def test_ctrl_c_cancels_a_running_sweep_cleanly():
    scene = softgrad.Scene(BOX, set={"sweep.points": 2000})
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        scene.sweep(device="cpu")
    assert time.monotonic() - start < 20  # the whole sweep takes minutes on 2 cores
    timer.join()
    assert scene.sweep(points=2, device="cpu")["status"] == ["ok", "ok"]  # and the next one runs


def test_sweeps_from_many_python_threads_at_once_give_the_same_numbers():
    scene = softgrad.Scene(BOX, set={"sweep.points": 6})
    alone = scene.sweep(device="cpu")
    results = [None] * 6

    def work(i):
        results[i] = scene.sweep(device="cpu", threads=1)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        assert same_numbers(r["loss"], alone["loss"]) and same_numbers(r["grad"], alone["grad"])


def resident_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def test_no_memory_grows_over_a_thousand_sweeps():
    scene = softgrad.Scene(TOY, set={"sweep.points": 20})
    for _ in range(100):  # warm up allocators and the thread pool
        scene.sweep(device="cpu")
    before = resident_kib()
    for _ in range(1000):
        scene.sweep(device="cpu")
    grown = resident_kib() - before
    # One sweep's arrays and results are a few KiB: a leak of one per sweep would show as megabytes.
    assert grown < 2048, f"resident memory grew by {grown} KiB over 1000 sweeps"


def test_joint_trees_give_their_joint_coordinates(cli):
    chain = scene_path("pendulum_chain.json")
    run = softgrad.Scene(chain).simulate(value=0.9)
    ref = cli("simulate", chain, "--value=0.9")
    assert run["layout"] == "tree"
    assert run["qpos"].shape == (201, 3) and run["qvel"].shape == (201, 3)
    assert run["qpos"][0].tolist() == [0.9, 0.0, 0.0]  # the swept shoulder angle, the others at rest
    assert same_numbers(run["qpos"], ref["qpos"]) and same_numbers(run["qvel"], ref["qvel"])
    assert run["position"].shape == (201, 4, 3)  # the links' frames, as before
    if softgrad.has_mjcf:  # a floating base: position, then a unit quaternion, then 21 hinges
        humanoid = softgrad.Scene(scene_path("humanoid_fall.json"), set={"integrator.steps": 20}).simulate()
        assert humanoid["qpos"].shape == (21, 28) and humanoid["qvel"].shape == (21, 27)
        assert numpy.allclose(numpy.linalg.norm(humanoid["qpos"][:, 3:7], axis=1), 1.0, atol=1e-12)


def _child_sweep(scene, queue):
    queue.put(scene.sweep(device="cpu")["loss"].tolist())


def test_a_forked_child_sweeps_too():
    # multiprocessing's fork: the child has none of the parent's threads (the pooled runner starts anew there).
    import multiprocessing

    scene = softgrad.Scene(TOY, set={"sweep.points": 30})
    parent = scene.sweep(device="cpu")["loss"].tolist()
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_sweep, args=(scene, queue))
    child.start()
    child.join(60)
    if child.exitcode is None:  # hung: end it, so that the test fails instead of the interpreter waiting at exit
        child.kill()
        child.join()
    assert child.exitcode == 0
    assert queue.get(timeout=5) == parent


def _child_gradients(scene, wrt, queue):
    queue.put({mode: scene.gradient(wrt, mode=mode, threads=2) for mode in ("forward", "reverse", "fd")})


def test_a_forked_child_takes_gradients_too():
    # The parent's gradients start the engine's helper threads, which the forked child does not have: it does
    # their share itself (engine/core/forked_child.hpp). Before, the child waited for them forever.
    import multiprocessing

    scene = softgrad.Scene(BOX, set={"integrator.steps": 20})
    wrt = ["model.bodies.0.vel.2", "model.bodies.0.angvel.0", "model.gravity.2", "model.bodies.0.friction.0"]
    parent = {mode: scene.gradient(wrt, mode=mode, threads=2) for mode in ("forward", "reverse", "fd")}
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_gradients, args=(scene, wrt, queue))
    child.start()
    child.join(60)
    if child.exitcode is None:
        child.kill()
        child.join()
    assert child.exitcode == 0
    assert queue.get(timeout=5) == parent
