"""Trains a small MLP on the 8x8 handwritten digits that scikit-learn ships, written as PyTorch code.

Run it with, after a build:
    PYTHONPATH=build/python python3 examples/train_digits.py [--epochs N]

The digits (1797 images, 64 pixels each) are split 80/20 into a training and a
held-out set; the network learns on the first, prints its loss as it falls, and
reports its accuracy on the second. Every line below would run with
`import torch` in place of `import wick as torch`.
"""
import argparse
import sys

import numpy as np
from sklearn.datasets import load_digits

import wick as torch
import wick.nn as nn
import wick.nn.functional as F


def data(seed):
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)  # pixels are 0..16
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    split = int(0.8 * len(x))
    train, test = order[:split], order[split:]
    return (torch.tensor(x[train]), torch.tensor(y[train])), (torch.tensor(x[test]), torch.tensor(y[test]))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(64, 128)
        self.dropout = nn.Dropout(0.1)
        self.out = nn.Linear(128, 10)

    def forward(self, x):
        return self.out(self.dropout(F.relu(self.hidden(x))))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        predicted = model(x).argmax(dim=1)
    model.train()
    return (predicted == y).float().mean().item()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-accuracy", type=float, default=0.95, help="fail below this held-out accuracy")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    (x_train, y_train), (x_test, y_test) = data(args.seed)
    model = MLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    n = x_train.shape[0]
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(n)
        total = 0.0
        for start in range(0, n, args.batch_size):
            batch = order[start:start + args.batch_size]
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x_train[batch]), y_train[batch])
            loss.backward()
            optimizer.step()
            total += loss.item() * batch.shape[0]
        if epoch == 1 or epoch % 5 == 0 or epoch == args.epochs:
            print(f"epoch {epoch:3d}  loss {total / n:.4f}  held-out accuracy {accuracy(model, x_test, y_test):.3f}")
    final = accuracy(model, x_test, y_test)
    print(f"held-out accuracy: {final:.3f} on {x_test.shape[0]} digits")
    if final < args.min_accuracy:
        sys.exit(f"accuracy {final:.3f} is below {args.min_accuracy}")


if __name__ == "__main__":
    main()
