"""examples/train_digits.py, shortened: an MLP learns scikit-learn's handwritten digits."""
import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "train_digits.py"


def test_a_short_run_learns_the_digits():
    proc = subprocess.run([sys.executable, str(EXAMPLE), "--epochs", "5", "--min-accuracy", "0.9"],
                          capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    losses = [float(line.split()[3]) for line in proc.stdout.splitlines() if line.startswith("epoch")]
    assert len(losses) == 2 and losses[-1] < losses[0] / 2, proc.stdout
    assert "held-out accuracy:" in proc.stdout
