"""softgrad: differentiable contact simulation, from Python.

The same engine, scene files and checks as the `softgrad` command line (docs/python.md):

    import softgrad
    scene = softgrad.Scene("scenes/toy_point_mass.json", set={"sweep.points": 50})
    run = scene.simulate()                    # trajectory as numpy arrays
    sweep = scene.sweep()                     # loss, AD and FD gradients over the sweep
    grads = scene.gradient(["model.particles.0.vel.2"], mode="reverse")

Bad scenes, keys and values raise ValueError naming the file and the key path; runs that fail (diverge,
exhaust their step budget, end non-finite) raise softgrad.SimulationError unless check=False. Runs release
the GIL; Ctrl-C cancels a running sweep.
"""

import json as _json
import math as _math
import os as _os

from ._softgrad import SimulationError, available_cores, cuda_device, has_mjcf
from ._softgrad import _GridAxis, _Scene, _fit, _sweep2d, _tradeoff

__all__ = ["Scene", "SimulationError", "available_cores", "cuda_device", "has_mjcf"]


def _non_finite_path(value, path=""):
    """The key path of the first NaN or infinity inside value (dicts and lists), or None."""
    if isinstance(value, float) and not _math.isfinite(value):
        return path or "(the value)"
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _non_finite_path(item, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


def _plain(value):
    """numpy arrays and scalars as plain Python lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def _override_text(value):
    """A value as the text of `--set path=value`: strings as they are (a choice such as "hard", or JSON), the
    rest as JSON. NaN and infinities go through as nan / inf, which the scene layer refuses by key."""
    value = _plain(value)
    if isinstance(value, str):
        return value
    if isinstance(value, float) and not _math.isfinite(value):
        return repr(value)
    return _json.dumps(value, allow_nan=True)


def _overrides(values):
    if values is None:
        return []
    if not isinstance(values, dict):
        raise TypeError("set: expected a dict of dotted scene paths to values")
    return [f"{path}={_override_text(value)}" for path, value in values.items()]


class Scene:
    """A scene: a file (JSON scene or the scenes/ folder's formats) or a dict of the same keys, with overrides.

    Scene(path_or_dict, set={"path": value, ...}); set(path, value) is `--set path=value`: the scene is
    validated again and a bad value leaves it as it was.
    """

    def __init__(self, scene, set=None):  # noqa: A002 (the CLI's name for overrides)
        overrides = _overrides(set)
        if isinstance(scene, Scene):
            self._s = scene._s.copy()
            for text in overrides:
                path, _, value = text.partition("=")
                self._s.set(path, value)
        elif isinstance(scene, (str, _os.PathLike)):
            self._s = _Scene.from_file(_os.fspath(scene), overrides)
        elif isinstance(scene, dict):
            bad = _non_finite_path(scene)
            if bad:
                raise ValueError(f"<dict>: {bad}: expected a finite number (NaN and infinities are refused)")
            self._s = _Scene.from_json_text(_json.dumps(scene), overrides)
        else:
            raise TypeError("Scene: expected a scene file path, a dict or a Scene")

    # --- the scene's numbers -------------------------------------------------------------------------
    def set(self, path, value):
        """Sets one dotted path (a number, vector, choice or object) as `--set path=value`; returns self."""
        self._s.set(path, _override_text(value))
        return self

    def get(self, path):
        """The value at a dotted path of the resolved scene (defaults filled)."""
        return self._s.get(path)

    def to_dict(self):
        """The resolved scene (validated, defaults filled), as a dict that Scene() takes back."""
        return self._s.to_dict()

    def copy(self, set=None):  # noqa: A002
        """An independent copy, with more overrides."""
        return Scene(self, set=set)

    @property
    def name(self):
        return self._s.name

    @property
    def source(self):
        """The scene file, or "<dict>"."""
        return self._s.source

    @property
    def overrides(self):
        """The overrides applied so far, as `path=value` texts."""
        return list(self._s.overrides)

    @property
    def parameter(self):
        """The swept parameter's dotted path (sweep.parameter)."""
        return self._s.parameter

    @property
    def paths(self):
        """Every differentiable number of the scene, as dotted paths."""
        return list(self._s.paths)

    def __repr__(self):
        return f"softgrad.Scene({self.source!r}, name={self.name!r}, overrides={len(self.overrides)})"

    # --- runs ----------------------------------------------------------------------------------------
    def simulate(self, value=None, check=True):
        """One trajectory at a value of the swept parameter (default: sweep.from, or the value set on it).

        Returns a dict: t, q, v, position, velocity (and quaternion, angular_velocity for bodies), force,
        contacts (touching contacts per output time), dt (accepted step sizes), events, loss, grad (forward
        AD), status, accepted, rejected. Raises SimulationError when the run fails, unless check=False.
        """
        run = self._s.simulate(None if value is None else float(value))
        if check and run["status"] != "ok":
            raise SimulationError(f"{self.source}: {run['status']}")
        return run

    def sweep(self, points=None, device="auto", threads=None, progress=None):
        """The loss and its AD and FD gradients over sweep.from..sweep.to (points: sweep.points).

        device: "cpu", "cuda" or "auto" (the GPU where one is present and pays off). progress(done, total) is
        called from this thread while the sweep runs; Ctrl-C cancels it. Returns a dict of numpy arrays
        values, loss, grad, grad_fd, grad_ref, steps, rejected, events, and status (a string per point), stats
        (as the CLI's JSON), reference, device. A failed point is reported in status, not raised.
        """
        scene = self if points is None else self.copy(set={"sweep.points": points})
        return scene._s.sweep(device, _threads(threads), progress)

    def value_and_grad(self, paths, values=None, mode="reverse", fd_eps=None, threads=None, check=True):
        """(loss, gradient as a numpy array in the order of paths) with those numbers set to values (default:
        the scene's). mode: forward, reverse, backsolve or fd."""
        paths = [paths] if isinstance(paths, str) else list(paths)
        if values is not None:
            values = [float(v) for v in _plain(values)]
        loss, grad, _, _ = self._s.value_and_grad(paths, values, mode, fd_eps, _threads(threads), check)
        return loss, grad

    def gradient(self, wrt, mode="forward", value=None, fd_eps=None, threads=None, check=True):
        """d loss / d p for every dotted path in wrt ("all": every differentiable number and loss target), as a
        dict path -> float. value: the swept parameter's value (as the CLI's --value)."""
        scene = self if value is None else self.copy(set={self.parameter: float(value)})
        wrt = [wrt] if isinstance(wrt, str) else list(wrt)
        _, _, by_path, _ = scene._s.value_and_grad(wrt, None, mode, fd_eps, _threads(threads), check)
        return by_path

    def residuals(self, paths, data, values=None, threads=None, check=True):
        """Position residuals against measured data and their Jacobian, for a least-squares solver.

        data: a CSV file with the header t,body,x,y,z (as `softgrad fit --data`), or an array of such rows
        (times on the scene's output grid). Returns (r, J, samples): r the predicted minus measured positions
        (3 per sample), J = dr/dp (len(r) x len(paths), forward mode); the fit's objective is |r|^2 / samples.
        """
        paths = [paths] if isinstance(paths, str) else list(paths)
        text, source = _data_text(data)
        if values is not None:
            values = [float(v) for v in _plain(values)]
        return self._s.residuals(paths, values, text, source, _threads(threads), check)

    def sweep2d(self, x, y, device="auto", threads=None, progress=None):
        """The loss and its AD and FD gradient over a grid of two scene numbers, as `softgrad sweep2d`.

        x, y: (path, from, to, points). Returns a dict: x and y ({"path", "values"}), loss, grad_x, grad_y,
        grad_x_fd, grad_y_fd, error as numpy arrays of shape (y points, x points) (NaN where a point failed),
        status (rows of strings), stats, device. progress and Ctrl-C as sweep().
        """
        result = _sweep2d(self._s, _axis("x", x), _axis("y", y), device, _threads(threads), progress)
        import numpy

        for key in ("loss", "grad_x", "grad_y", "grad_x_fd", "grad_y_fd", "error"):
            result[key] = numpy.array([[numpy.nan if v is None else v for v in row] for row in result[key]],
                                      dtype=float)
        for axis in ("x", "y"):
            result[axis]["values"] = numpy.array(result[axis]["values"], dtype=float)
        return result

    def fit(self, wrt, data, start=None, method="lm", steps=200, lr=0.05, lr_final=1e-3, tolerance=0.0,
            threads=None, progress=None):
        """Fit scene numbers to measured positions, as `softgrad fit --data` (docs/identification.md).

        wrt: dotted paths; data: a t,body,x,y,z CSV file or an array of such rows (see residuals()); start:
        the values to start from (default: the scene's). method "lm" (Levenberg-Marquardt) or "adam".
        Returns a dict: values and std_error (path -> number), not_identified (path -> why), loss (the mean
        squared position error at the end), path (every accepted step), status, stopped, runs, residual_sigma,
        correlation. progress(steps done, steps) and Ctrl-C as sweep() (Ctrl-C stops after the current step).
        """
        wrt = [wrt] if isinstance(wrt, str) else list(wrt)
        text, source = _data_text(data)
        if start is not None:
            start = [float(v) for v in _plain(start)]
        return _fit(self._s, wrt, text, source, start, method, int(steps), float(lr), float(lr_final),
                    float(tolerance), _threads(threads), progress)

    def tradeoff(self, value=None, families=(), tolerances=None, divisions=None, repeats=3, progress=None):
        """Accuracy against cost of the integrators at one value of the swept number, as `softgrad tradeoff`:
        the CLI's JSON as a dict (reference, rows with loss and gradient errors and timings)."""
        return _tradeoff(self._s, None if value is None else float(value), list(families),
                         None if tolerances is None else [float(t) for t in tolerances],
                         None if divisions is None else [int(d) for d in divisions], int(repeats), progress)

    def loss(self, value=None, check=True):
        """The loss at a value of the swept parameter (a values-only run would be the same number)."""
        return self.simulate(value, check=check)["loss"]


def _data_text(data):
    """(CSV text, source name) of trajectory data: a t,body,x,y,z file, or an array of such rows."""
    if isinstance(data, (str, _os.PathLike)):
        source = _os.fspath(data)
        try:
            with open(source) as file:
                return file.read(), source
        except OSError as error:
            raise ValueError(f"{source}: cannot read the data file: {error.strerror}") from None
    lines = ["t,body,x,y,z"]
    for row in _plain(data):
        if len(row) != 5:
            raise ValueError(f"data: expected rows of 5 numbers t, body, x, y, z (got {len(row)})")
        t, body, x, y, z = (float(v) for v in row)
        if body != int(body):
            raise ValueError(f"data: body index {body} is not a whole number")
        lines.append(f"{t!r},{int(body)},{x!r},{y!r},{z!r}")
    return "\n".join(lines) + "\n", "<array>"


def _axis(name, spec):
    try:
        path, start, stop, points = spec
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected (path, from, to, points)") from None
    return _GridAxis(str(path), float(start), float(stop), int(points))


def _threads(threads):
    if threads is None:
        return 0
    if int(threads) != threads or threads < 0:
        raise ValueError("threads: expected a whole number >= 0 (0: all cores)")
    return int(threads)
