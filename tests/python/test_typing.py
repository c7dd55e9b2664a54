"""The module is typed (issue 25 item 3): it ships py.typed (PEP 561), and every public function
written in Python annotates each parameter and its return type with types that resolve.
"""
import inspect
import os
import typing

import clatter

PUBLIC_PYTHON_FUNCTIONS = ["simulate", "python_model", "sweep", "orbit_branch", "periodic_orbit",
                           "continue_orbit", "poincare", "boundary_crossing", "sweep_parameters",
                           "cmake_prefix"]


def test_the_package_ships_py_typed():
    assert os.path.isfile(os.path.join(os.path.dirname(clatter.__file__), "py.typed"))


def test_every_public_python_function_is_annotated():
    for name in PUBLIC_PYTHON_FUNCTIONS:
        assert name in clatter.__all__
        f = getattr(clatter, name)
        hints = typing.get_type_hints(f)  # raises if an annotation does not resolve
        for p in inspect.signature(f).parameters.values():
            assert p.name in hints, f"{name}: parameter {p.name} has no annotation"
        assert "return" in hints, f"{name}: no return annotation"
