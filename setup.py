"""Builds the Python module for `pip install .` (pyproject.toml): the extension clatter._clatter
and libclatter are built by CMake for the interpreter that runs pip, and packaged with the
pure-Python part (python/clatter/). The package folder is also the prefix of clatter's headers and
CMake package (lib/libclatter.so.X.Y, include/clatter/, lib/cmake/clatter/: CMake's component
"dev"), so that a plugin builds against a pip-installed clatter with
CMAKE_PREFIX_PATH=$(python -c "import clatter; print(clatter.cmake_prefix())"). The extension
finds its libclatter in lib/ ($ORIGIN/lib), so the installed package needs nothing of the source
tree or of a build directory.

CMake's build directory is build/pip-<interpreter tag> (CLATTER_PIP_BUILD_DIR overrides it); a
second `pip install .` reuses it. CLATTER_JOBS sets the parallel jobs (default: all cores).
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(clatter VERSION ([0-9.]+)", text).group(1)


class BuildWithCMake(build_py):
    """build_py, then the extension and libclatter from CMake into the package."""

    def run(self):
        super().run()
        build = Path(os.environ.get("CLATTER_PIP_BUILD_DIR",
                                    ROOT / "build" / f"pip-{sys.implementation.cache_tag}"))
        jobs = os.environ.get("CLATTER_JOBS", str(os.cpu_count() or 1))
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(
            ["cmake", "-S", str(ROOT), "-B", str(build), *generator,
             "-DCMAKE_BUILD_TYPE=Release", f"-DCLATTER_PYTHON={sys.executable}",
             "-DCLATTER_BUILD_TESTS=OFF", "-DCLATTER_BUILD_BENCH=OFF",
             "-DCLATTER_WITH_MPI=OFF", "-DCLATTER_WITH_HDF5=OFF", "-DCMAKE_INSTALL_LIBDIR=lib",
             "-DCLATTER_PYTHON_INSTALL_DIR=python"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "clatter_python",
                               "-j", jobs])
        stage = build / "pip-stage"
        shutil.rmtree(stage, ignore_errors=True)
        subprocess.check_call(["cmake", "--install", str(build), "--component", "python",
                               "--prefix", str(stage)])
        dev = build / "pip-dev"
        shutil.rmtree(dev, ignore_errors=True)
        subprocess.check_call(["cmake", "--install", str(build), "--component", "dev",
                               "--prefix", str(dev)])
        built = stage / "python" / "clatter"
        if not any(built.glob("_clatter*.so")):
            sys.exit("clatter: the extension was not built: CMake needs this interpreter's headers "
                     f"({sys.executable}) and pybind11 (scripts/setup.sh installs python3-dev "
                     "and pybind11-dev); see CMake's warning above")
        target = Path(self.build_lib) / "clatter"
        target.mkdir(parents=True, exist_ok=True)
        for f in built.iterdir():  # the modules, the extension and plots/ (the plot scripts)
            if f.is_dir():
                shutil.copytree(f, target / f.name, dirs_exist_ok=True)
            else:
                shutil.copy2(f, target / f.name)
        # the headers and the CMake package; the library once, under its soname (the name the
        # extension and plugins ask for; a wheel would store its symlinks as copies), which the
        # package's targets file is pointed at
        shutil.copytree(dev / "include", target / "include", dirs_exist_ok=True)
        shutil.copytree(dev / "lib" / "cmake", target / "lib" / "cmake", dirs_exist_ok=True)
        lib = (dev / "lib" / "libclatter.so").resolve()
        soname = re.sub(r"(\.so\.\d+\.\d+)\.\d+$", r"\1", lib.name)
        shutil.copy2(lib, target / "lib" / soname)
        for targets in (target / "lib" / "cmake" / "clatter").glob("clatterTargets-*.cmake"):
            text = targets.read_text().replace(lib.name, soname)
            targets.write_text(text)


class BinaryDistribution(Distribution):
    """A wheel for this platform and interpreter (it holds compiled code)."""

    def has_ext_modules(self):
        return True


setup(
    version=version(),
    packages=["clatter"],
    package_dir={"clatter": "python/clatter"},
    cmdclass={"build_py": BuildWithCMake},
    distclass=BinaryDistribution,
    options={"build": {"build_base": "build/pip-setuptools"}},
    zip_safe=False,
)
