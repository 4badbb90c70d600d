"""The examples in examples/python run and do what they say (smaller runs than their defaults)."""

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR

EXAMPLES = SOURCE_DIR / "examples" / "python"


def run_example(name, *args, cwd=None):
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ), timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_sweep_plot_writes_the_figure(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (Debian: python3-matplotlib)")
    out = tmp_path / "sweep.png"
    text = run_example("sweep_plot.py", "--points", "8", "--out", str(out))
    assert out.stat().st_size > 10000 and out.read_bytes()[:4] == b"\x89PNG"
    assert "8 points, 0 failed" in text


def test_fit_friction_recovers_the_truth():
    pytest.importorskip("scipy", reason="SciPy is not installed (Debian: python3-scipy)")
    text = run_example("fit_friction.py", "--start", "0.45")
    friction = float(text.split()[1])
    assert abs(friction - 0.6) < 1e-5, text


def test_learn_throw_speed_reaches_the_target():
    pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
    text = run_example("learn_throw_speed.py", "--steps", "40")
    distance = float(text.strip().split()[-2])
    assert distance < 0.01, text
