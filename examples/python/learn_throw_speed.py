"""Learn a throw speed through softgrad's PyTorch layer: the sideways speed at which the cube of
scenes/identify_cube_toss.json comes to rest at x = 0.3 m, by Adam on softgrad's reverse-mode gradient.

    PYTHONPATH=build/python python3 examples/python/learn_throw_speed.py [--target 0.3] [--steps 30]
"""

import argparse
import pathlib

import torch

import softgrad
import softgrad.torch

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.3, help="where the cube should end (m, along x)")
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()

    # The loss: the squared distance of the cube's final x from the target (a scene key like any other).
    scene = softgrad.Scene(ROOT / "scenes" / "identify_cube_toss.json", set={
        "loss.terms": [{"quantity": "position", "body": 0, "axis": "x", "kind": "square", "target": args.target}]})
    layer = softgrad.torch.SceneLoss(scene, ["model.bodies.0.vel.0"])
    speed = torch.tensor([scene.get("model.bodies.0.vel.0")], dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.Adam([speed], lr=0.1)
    schedule = torch.optim.lr_scheduler.ExponentialLR(optimiser, gamma=0.9)  # settle instead of circling
    for step in range(args.steps):
        optimiser.zero_grad()
        loss = layer(speed)
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 5 == 0 or step == args.steps - 1:
            print(f"step {step:3d}: speed {speed.item():.4f} m/s, loss {loss.item():.3e}")
    print(f"learned speed {speed.item():.4f} m/s: final distance to the target {layer(speed).item() ** 0.5:.2e} m")


if __name__ == "__main__":
    main()
