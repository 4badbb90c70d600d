"""A loss and gradient sweep plotted with matplotlib: the same numbers as `softgrad sweep SCENE --svg`.

    PYTHONPATH=build/python python3 examples/python/sweep_plot.py [SCENE] [--points N] [--out FILE]

Default: the DiffMJX box toss (scenes/toss_box_diffmjx.json), 50 points, written to sweep.png.
"""

import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")  # files only, no window
import matplotlib.pyplot as plt  # noqa: E402

import softgrad  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scene", nargs="?", default=str(ROOT / "scenes" / "toss_box_diffmjx.json"))
    parser.add_argument("--points", type=int, default=50)
    parser.add_argument("--out", default="sweep.png")
    args = parser.parse_args()

    scene = softgrad.Scene(args.scene)
    result = scene.sweep(points=args.points, progress=lambda done, total: print(f"\r{done}/{total}", end=""))
    print()
    stats = result["stats"]
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    top.plot(result["values"], result["loss"], color="black")
    top.set_ylabel("loss")
    top.set_title(f"{scene.name}: median relative AD-FD difference {stats['grad_rel_err_median']:.2g}")
    bottom.plot(result["values"], result["grad"], label="AD", color="tab:blue")
    bottom.plot(result["values"], result["grad_fd"], "--", label="central FD", color="tab:orange")
    bottom.set_xlabel(result["parameter"])
    bottom.set_ylabel("d loss / d " + result["parameter"].split(".")[-2])
    bottom.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    failed = sum(status != "ok" for status in result["status"])
    print(f"{args.out}: {len(result['values'])} points, {failed} failed, {stats['seconds']:.2f} s")


if __name__ == "__main__":
    main()
