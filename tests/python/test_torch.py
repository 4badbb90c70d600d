"""softgrad.torch: the scene's loss as a torch.autograd.Function, checked by torch.autograd.gradcheck."""

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")

import softgrad  # noqa: E402
import softgrad.torch as st  # noqa: E402
from conftest import scene_path  # noqa: E402


def test_gradcheck_on_the_toy():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"))
    paths = ["model.particles.0.pos.2", "contact.penalty.k"]
    for start in ([0.73, 50.0], [1.37, 40.0], [2.5, 50.0]):
        x = torch.tensor(start, dtype=torch.float64, requires_grad=True)
        assert torch.autograd.gradcheck(lambda p: st.SimulateLoss.apply(p, scene, paths), (x,), eps=1e-6,
                                        atol=1e-6, rtol=1e-4)


def test_gradcheck_on_the_box_toss():
    # Tight tolerances, so that central differences of the adaptive run are accurate to gradcheck's rtol.
    scene = softgrad.Scene(scene_path("toss_box_diffmjx.json"),
                           set={"integrator.rtol": 1e-11, "integrator.atol": 1e-11, "integrator.max_steps": 100000})
    paths = ["model.bodies.0.vel.2", "model.bodies.0.vel.0"]
    x = torch.tensor([-2.0, 0.3], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda p: st.SimulateLoss.apply(p, scene, paths), (x,), eps=1e-6, atol=1e-5,
                                    rtol=1e-3)


def test_the_layers_gradient_is_softgrads_and_modes_agree():
    scene = softgrad.Scene(scene_path("toss_box_diffmjx.json"))
    paths = ["model.bodies.0.vel.2"]
    x = torch.tensor([-2.0], dtype=torch.float64, requires_grad=True)
    loss = st.SceneLoss(scene, paths)(x)
    loss.backward()
    ref_loss, ref_grad = scene.value_and_grad(paths, [-2.0], mode="forward")
    assert loss.item() == ref_loss
    assert x.grad.item() == pytest.approx(ref_grad[0], rel=1e-9)


def test_a_training_loop_learns_a_start_height():
    # The toy: find the start height whose particle ends at q = 1 (the loss |q_N - 1| is 0 there, at 3).
    scene = softgrad.Scene(scene_path("toy_point_mass.json"))
    height = torch.tensor([2.3], dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.SGD([height], lr=0.03)
    layer = st.SceneLoss(scene, ["model.particles.0.pos.2"])
    first = layer(height).item()
    for _ in range(40):
        optimiser.zero_grad()
        loss = layer(height)
        loss.backward()
        optimiser.step()
    assert first == pytest.approx(0.7) and layer(height).item() < 0.035


def test_wrong_shapes_and_failed_runs_raise():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"))
    with pytest.raises(ValueError, match="1-d tensor of 1"):
        st.SimulateLoss.apply(torch.zeros(2, dtype=torch.float64), scene, ["model.particles.0.pos.2"])
    bad = softgrad.Scene(scene_path("toss_box_diffmjx.json"), set={"integrator.max_steps": 3})
    with pytest.raises(softgrad.SimulationError):
        st.SimulateLoss.apply(torch.tensor([-2.0], dtype=torch.float64), bad, ["model.bodies.0.vel.2"])
