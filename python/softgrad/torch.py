"""softgrad as a PyTorch layer: the scene's loss as a differentiable function of chosen scene numbers.

    import softgrad, softgrad.torch
    scene = softgrad.Scene("scenes/toss_box_diffmjx.json")
    v = torch.tensor([-2.0], dtype=torch.float64, requires_grad=True)
    loss = softgrad.torch.SimulateLoss.apply(v, scene, ["model.bodies.0.vel.2"])
    loss.backward()                     # v.grad: softgrad's reverse-mode gradient

The forward pass runs the simulation once with the numbers set and records softgrad's gradient of the loss
(reverse mode by default: one run and one backward sweep of its tape, however many numbers; CFD and contact
events as the scene says); the backward pass multiplies it by the incoming gradient. The loss is a scalar, so
this is exact, not an approximation. Needs PyTorch (Debian: python3-torch); softgrad itself does not.
"""

try:
    import torch as _torch
except ImportError as error:  # the rest of softgrad works without PyTorch
    raise ImportError(
        "softgrad.torch needs PyTorch, which is not installed (Debian: apt install python3-torch): "
        f"{error}") from error

__all__ = ["SimulateLoss", "SceneLoss"]


class SimulateLoss(_torch.autograd.Function):
    """SimulateLoss.apply(params, scene, paths, mode="reverse") -> the scene's loss (a 0-d tensor).

    params: a 1-d tensor, one value per dotted path in paths. mode: reverse, forward or fd (the gradient the
    backward pass returns). Raises softgrad.SimulationError where the run fails.
    """

    @staticmethod
    def forward(ctx, params, scene, paths, mode="reverse"):
        if params.dim() != 1 or params.numel() != len(paths):
            raise ValueError(f"params: expected a 1-d tensor of {len(paths)} values (one per path), "
                             f"got shape {tuple(params.shape)}")
        values = params.detach().to("cpu", _torch.float64).tolist()
        loss, grad = scene.value_and_grad(list(paths), values, mode=mode)
        ctx.save_for_backward(_torch.as_tensor(grad, dtype=params.dtype, device=params.device))
        return _torch.as_tensor(loss, dtype=params.dtype, device=params.device)

    @staticmethod
    def backward(ctx, grad_output):
        (grad,) = ctx.saved_tensors
        return grad_output * grad, None, None, None


class SceneLoss(_torch.nn.Module):
    """A module whose forward(params) is SimulateLoss.apply(params, scene, paths, mode)."""

    def __init__(self, scene, paths, mode="reverse"):
        super().__init__()
        self.scene, self.paths, self.mode = scene, list(paths), mode

    def forward(self, params):
        return SimulateLoss.apply(params, self.scene, self.paths, self.mode)
