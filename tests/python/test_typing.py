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


def test_the_stub_of_the_extension_matches_it():
    # python/clatter/_clatter.pyi types the names clatter re-exports from the extension: each
    # exists there, and each function's parameters are those of the binding's signature (its
    # docstring's first line, pybind11's), in order
    import ast
    import re

    from clatter import _clatter
    stub = os.path.join(os.path.dirname(clatter.__file__), "_clatter.pyi")
    tree = ast.parse(open(stub).read())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name != "__getattr__":
            names.add(node.name)
            doc = getattr(_clatter, node.name).__doc__.splitlines()[0]
            params, depth, part = [], 0, ""
            for ch in re.match(r"\w+\((.*)\) ->", doc).group(1) + ",":
                depth += ch in "[(" and 1 or ch in "])" and -1 or 0
                if ch == "," and depth == 0:
                    params.append(part)
                    part = ""
                else:
                    part += ch
            bound = [p.split(":")[0].strip() for p in params if p.strip()]
            mine = [a.arg for a in node.args.args]
            if node.name == "state_names":
                bound = ["model"]  # pybind11 names an unnamed argument arg0
            assert mine == bound, (node.name, mine, bound)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            cls = getattr(_clatter, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name != "__init__":
                    assert hasattr(cls, item.name), (node.name, item.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
            assert hasattr(_clatter, node.target.id), node.target.id
    # every public name clatter takes from the extension is typed by the stub
    from_extension = {n for n in clatter.__all__
                      if getattr(clatter, n, None) is getattr(_clatter, n, object())}
    assert from_extension <= names, from_extension - names
