"""softgrad.Scene's studies: sweep2d, fit and tradeoff, against the CLI's JSON and known answers."""

import math

import numpy
import pytest

import softgrad
from conftest import scene_path

TOY = scene_path("toy_point_mass.json")
CUBE = scene_path("identify_cube_toss.json")


def grid(values):
    return numpy.array([[math.nan if v is None else v for v in row] for row in values], dtype=float)


def test_sweep2d_equals_the_clis_grid(cli):
    scene = softgrad.Scene(TOY)
    x = ("model.particles.0.pos.2", 0.5, 2.5, 5)
    y = ("contact.penalty.k", 20, 80, 4)
    got = scene.sweep2d(x, y, device="cpu")
    ref = cli("sweep2d", TOY, "--x", *map(str, x), "--y", *map(str, y), "--device", "cpu")
    assert got["loss"].shape == (4, 5)
    for key in ("loss", "grad_x", "grad_y", "grad_x_fd", "grad_y_fd"):
        a, b = got[key], grid(ref[key])
        assert bool(numpy.all((a == b) | (numpy.isnan(a) & numpy.isnan(b)))), key
    assert got["x"]["values"].tolist() == ref["x"]["values"]
    assert got["status"] == ref["status"]
    with pytest.raises(ValueError):
        scene.sweep2d(x, ("model.particles.0.pos.2", 0, 1, 3))  # the same number twice
    with pytest.raises(ValueError, match="path, from, to, points"):
        scene.sweep2d(x, ("contact.penalty.k", 20))


def cube_rows(scene):
    run = scene.simulate()
    return [(t, 0, *run["position"][i, 0]) for i, t in enumerate(run["t"]) if i > 0]


def test_fit_recovers_a_friction_from_the_scenes_own_positions():
    truth = softgrad.Scene(CUBE)
    rows = cube_rows(truth)
    calls = []
    result = truth.fit(["model.bodies.0.friction.0"], rows, start=[0.4],
                       progress=lambda done, total: calls.append(done))
    assert result["status"] == "ok"
    assert result["values"]["model.bodies.0.friction.0"] == pytest.approx(0.6, abs=1e-6)
    assert result["loss"] < 1e-12
    assert calls and calls[-1] >= 1  # progress saw the steps


def test_fit_refuses_bad_input(tmp_path):
    scene = softgrad.Scene(CUBE)
    rows = cube_rows(scene)
    with pytest.raises(ValueError, match="method"):
        scene.fit(["model.bodies.0.friction.0"], rows, method="newton")
    with pytest.raises(ValueError, match="model.bodies.0.frction.0"):
        scene.fit(["model.bodies.0.frction.0"], rows)
    bad = tmp_path / "bad.csv"
    bad.write_text("t,body,x,y,z\n0.01,0,1,2\n")
    with pytest.raises(ValueError, match=r"bad.csv:2"):
        scene.fit(["model.bodies.0.friction.0"], str(bad))
    with pytest.raises(ValueError, match="cannot read"):
        scene.fit(["model.bodies.0.friction.0"], str(tmp_path / "missing.csv"))
    with pytest.raises(ValueError, match="5 numbers"):
        scene.residuals(["model.bodies.0.friction.0"], [(0.01, 0, 1.0)])


def test_residuals_and_their_jacobian_agree_with_finite_differences():
    scene = softgrad.Scene(CUBE)
    rows = cube_rows(scene)
    path = ["model.bodies.0.friction.0"]
    r, J, samples = scene.residuals(path, rows, values=[0.5])
    assert samples == len(rows) and r.shape == (3 * len(rows),) and J.shape == (3 * len(rows), 1)
    h = 1e-6
    r_plus = scene.residuals(path, rows, values=[0.5 + h])[0]
    r_minus = scene.residuals(path, rows, values=[0.5 - h])[0]
    fd = (r_plus - r_minus) / (2 * h)
    assert numpy.max(numpy.abs(fd - J[:, 0])) <= 1e-4 * numpy.max(numpy.abs(J[:, 0]))


def test_tradeoff_equals_the_clis_numbers(cli):
    scene = softgrad.Scene(TOY)
    got = scene.tradeoff(value=1.5, families=["euler", "rk4"], divisions=[1, 3], repeats=1)
    ref = cli("tradeoff", TOY, "--value", "1.5", "--methods", "euler,rk4", "--divisions", "1,3", "--repeats", "1")
    assert len(got["rows"]) == len(ref["rows"]) == 4
    for a, b in zip(got["rows"], ref["rows"]):
        assert (a["family"], a["value"]) == (b["family"], b["value"]) and a["loss"] == b["loss"] and a["grad"] == b["grad"]
    with pytest.raises(ValueError, match="nosuchmethod"):
        scene.tradeoff(families=["nosuchmethod"])
