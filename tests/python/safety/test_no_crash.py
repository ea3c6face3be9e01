"""No argument, however wrong, crashes the interpreter: see call_every_binding.py."""
import os
import subprocess
import sys
from pathlib import Path


def test_every_binding_survives_wrong_arguments():
    script = Path(__file__).with_name("call_every_binding.py")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ))
    assert run.returncode == 0, f"exit code {run.returncode}\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    assert "no crash" in run.stdout
