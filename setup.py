"""setup.py: builds the wick package by driving the project's CMake, as PyTorch's setup.py does.

    python3 -m venv --system-site-packages venv && venv/bin/pip install --no-build-isolation .
    python3 -m build --wheel --no-isolation

build_ext configures a CMake tree (Ninja, Release, no tests) under setuptools' build directory
(build/setuptools/), builds the module and the package there, and copies the package that CMake
assembles (build/python/wick: wick._C, the Python files, the .pyi stubs and py.typed) into the
wheel. Two environment variables reach CMake:
    WICK_CMAKE_ARGS   more arguments for the configure step, e.g. "-DWICK_CUDA=OFF"
    WICK_BUILD_DIR    a configured tree to build and take the package from instead (e.g. build),
                      so that a wheel of what was just built costs no second build
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    """The module wick._C, whose sources CMake knows (python_ext/CMakeLists.txt)."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        tree = os.environ.get("WICK_BUILD_DIR")
        if tree:
            tree = Path(tree).resolve()
        else:
            tree = Path(self.build_temp).resolve() / "cmake"
            configure = ["cmake", "-S", str(ROOT), "-B", str(tree), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                         f"-DPython_EXECUTABLE={sys.executable}", "-DWICK_TESTS=OFF",
                         *shlex.split(os.environ.get("WICK_CMAKE_ARGS", ""))]
            nvcc = Path("/usr/local/cuda/bin/nvcc")
            if nvcc.exists() and "CUDACXX" not in os.environ:
                configure.append(f"-DCMAKE_CUDA_COMPILER={nvcc}")
            subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(tree), "--target", "wick_python", "wick_stubs"], check=True)
        package = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        if package.exists():
            shutil.rmtree(package)
        shutil.copytree(tree / "python" / "wick", package, ignore=shutil.ignore_patterns("__pycache__"))


setup(
    version=(ROOT / "version.txt").read_text().strip(),
    packages=[],  # CMake assembles the package; build_ext copies all of it
    ext_modules=[CMakeExtension("wick._C")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build/setuptools"}},
    zip_safe=False,
)
