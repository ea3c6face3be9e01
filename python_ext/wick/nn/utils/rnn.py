"""wick.nn.utils.rnn: pad_sequence, as PyTorch's: sequences of different lengths as one padded batch."""
import collections.abc

import wick

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence(sequences, batch_first=False, padding_value=0.0) -> Tensor

    Stacks tensors of shapes (L_i, *) into one of shape (max L_i, len(sequences), *), or (len(sequences),
    max L_i, *) if batch_first, padding each after its end with padding_value; the dtype and device are the
    first sequence's.
    """
    if not isinstance(sequences, collections.abc.Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    # The checks of PyTorch's binding, then of its kernel.
    for i, sequence in enumerate(sequences):
        if not isinstance(sequence, wick.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(sequence).__name__}")
    if not isinstance(batch_first, bool):
        raise TypeError(f"pad_sequence(): argument 'batch_first' (position 2) must be bool, not "
                        f"{type(batch_first).__name__}")
    if isinstance(padding_value, bool) or not isinstance(padding_value, (int, float)):
        raise TypeError(f"pad_sequence(): argument 'padding_value' (position 3) must be float, not "
                        f"{type(padding_value).__name__}")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    for sequence in sequences:
        if sequence.dim() == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    first = sequences[0]
    max_len = max(sequence.shape[0] for sequence in sequences)
    trailing = tuple(first.shape[1:])
    shape = (len(sequences), max_len) + trailing if batch_first else (max_len, len(sequences)) + trailing
    out = wick.full(shape, padding_value, dtype=first.dtype, device=first.device)
    for i, sequence in enumerate(sequences):
        length = sequence.shape[0]
        if batch_first:
            out[i, :length].copy_(sequence)
        else:
            out[:length, i].copy_(sequence)
    return out
