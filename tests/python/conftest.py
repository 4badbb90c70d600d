"""Shared fixtures of the Python module's tests: where the checkout and the built CLI are.

CTest runs these with PYTHONPATH at build/python and SOFTGRAD_SOURCE_DIR / SOFTGRAD_BINARY_DIR set
(tests/CMakeLists.txt); by hand: PYTHONPATH=build/python python3 -m pytest tests/python.
"""

import json
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("SOFTGRAD_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BINARY_DIR = pathlib.Path(os.environ.get("SOFTGRAD_BINARY_DIR", SOURCE_DIR / "build"))


def scene_path(name):
    return str(SOURCE_DIR / "scenes" / name)


@pytest.fixture
def cli(tmp_path):
    """Runs the softgrad binary with --out into a temporary file and returns the JSON it wrote."""

    def run(*args):
        out = tmp_path / "cli.json"
        command = [str(BINARY_DIR / "cli" / "softgrad"), *args, "--out", str(out)]
        done = subprocess.run(command, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return json.loads(out.read_text())

    return run
