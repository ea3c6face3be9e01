"""wick.optim._common: what several of the optimizers share: the check of Adam-like betas (Adamax, NAdam, RAdam),
and the conversion of a loaded state whose numbers PyTorch before 1.12 saved as plain numbers."""
import wick


def check_betas(betas):
    """PyTorch's check of betas: each in [0, 1), "Invalid beta parameter at index 1: 1.0"."""
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


def numbers_to_tensors(optimizer, keys):
    """Makes the entries `keys` of each parameter's state tensors where they are plain numbers, as PyTorch's
    __setstate__ does for a state_dict saved before 1.12."""
    for state in optimizer.state.values():
        for key in keys:
            if key in state and not isinstance(state[key], wick.Tensor):
                state[key] = wick.tensor(float(state[key]))
