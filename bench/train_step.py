"""Time per training step (forward, loss, backward, optimizer step), wick beside PyTorch.

    PYTHONPATH=build/python /usr/bin/python3 bench/train_step.py [--threads N]

Two models, written once and run with `import wick as torch` semantics: an MLP
64-256-256-10 at batch 64 (Adam) and a small CNN, two 3x3 convolutions with max
pooling on 1x28x28 images at batch 32 (SGD with momentum). Both libraries start
from the same weights and data and run at the same thread count (--threads, set
before either library loads, for OpenMP, OpenBLAS and each library's own
setting). Rounds of each contender are interleaved and the best kept, so a noisy
machine slows both alike: the ratio is what to read.
"""
import argparse
import os
import sys
import time


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=50, help="steps per round")
    return parser.parse_args()


ARGS = parse() if __name__ == "__main__" else None
if ARGS:
    os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = str(ARGS.threads)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import wick  # noqa: E402


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))


def cnn(lib):
    nn = lib.nn
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 10))


# (name, model, input shape, optimizer)
MODELS = [
    ("MLP 64-256-256-10, batch 64, Adam", mlp, (64, 64), lambda lib, p: lib.optim.Adam(p, lr=1e-3)),
    ("CNN 2 conv on 1x28x28, batch 32, SGD", cnn, (32, 1, 28, 28),
     lambda lib, p: lib.optim.SGD(p, lr=0.01, momentum=0.9)),
]


class Trainer:
    """One library's model, optimizer and batch, from the same weights and data as the other's."""

    def __init__(self, lib, build, shape, optimizer, weights, x, y):
        self.lib = lib
        self.model = build(lib)
        self.model.load_state_dict({k: lib.tensor(v) for k, v in weights.items()})
        self.opt = optimizer(lib, self.model.parameters())
        self.x, self.y = lib.tensor(x), lib.tensor(y)
        self.cross_entropy = lib.nn.functional.cross_entropy

    def step(self):
        self.opt.zero_grad()
        loss = self.cross_entropy(self.model(self.x), self.y)
        loss.backward()
        self.opt.step()
        return loss


def measure(trainers, rounds, steps):
    best = {name: float("inf") for name in trainers}
    for t in trainers.values():
        t.step()  # warm up: first-call allocations, thread pools
    for _ in range(rounds):
        for name, t in trainers.items():
            start = time.perf_counter()
            for _ in range(steps):
                t.step()
            best[name] = min(best[name], (time.perf_counter() - start) / steps)
    return best


def main():
    wick.set_num_threads(ARGS.threads)
    torch.set_num_threads(ARGS.threads)
    rng = np.random.default_rng(0)
    print(f"threads: {ARGS.threads} (wick {wick.get_num_threads()}, torch {torch.get_num_threads()}), "
          f"best of {ARGS.rounds} rounds of {ARGS.steps} steps")
    print(f"{'model':<40}{'wick':>10}{'torch':>10}{'wick/torch':>12}")
    for name, build, shape, optimizer in MODELS:
        torch.manual_seed(0)
        reference = build(torch)
        weights = {k: v.detach().numpy().copy() for k, v in reference.state_dict().items()}
        x = rng.standard_normal(shape).astype(np.float32)
        y = rng.integers(0, 10, size=shape[0]).astype(np.int64)
        trainers = {lib.__name__: Trainer(lib, build, shape, optimizer, weights, x, y) for lib in (wick, torch)}
        losses = {n: float(t.step()) for n, t in trainers.items()}
        if abs(losses["wick"] - losses["torch"]) > 1e-4 * max(1.0, abs(losses["torch"])):
            sys.exit(f"{name}: the first losses differ: wick {losses['wick']}, torch {losses['torch']}")
        best = measure(trainers, ARGS.rounds, ARGS.steps)
        w, t = best["wick"] * 1e3, best["torch"] * 1e3
        print(f"{name:<40}{w:>8.3f}ms{t:>8.3f}ms{w / t:>11.2f}x")


if __name__ == "__main__":
    main()
