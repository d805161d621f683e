"""EXPR, the Python expression a command checks: evaluated with every
module it names (numpy, dpnp, torch, ...) imported on first use. A module
this interpreter cannot import is a usage error that names the interpreter
and where the peers are: scripts/setup.sh installs them into a venv of their
own, not into the system's python3."""

import builtins
import difflib
import importlib
import os
import sys

from ._bridge.errors import BridgeError, describe_exception

# The venv scripts/setup.sh makes, with the peers (numpy, dpnp/dpctl,
# array-api-strict) installed.
TOOLS_PREFIX = "/opt/dlpack-usm/venv"


class _NoModule(NameError):
    """A name of EXPR that is no builtin and no module this interpreter
    imports: `module`, and the ImportError importing it raised."""

    def __init__(self, module, error):
        super().__init__(f"name {module!r} is not defined and is no importable module")
        self.module = module
        self.error = error


def _dotted_names(expression):
    """Every chain of names EXPR reads (["mlx", "core", "arange"] for
    mlx.core.arange(...)), root first."""
    import ast
    chains = []
    for node in ast.walk(ast.parse(expression, mode="eval")):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if parts and isinstance(node, ast.Name):
            chains.append([node.id, *reversed(parts)])
    return chains


class _Modules(dict):
    """Names an expression uses that are not builtins: imported on demand,
    with the submodules the expression reads through them (mlx.core, which
    `import mlx` leaves out)."""

    def __init__(self, expression):
        super().__init__()
        self.chains = _dotted_names(expression)

    def __missing__(self, name):
        if hasattr(builtins, name):
            raise KeyError(name)
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            raise _NoModule(name, error) from None
        for chain in self.chains:
            if chain[0] == name:
                _import_submodules(module, chain)
        self[name] = module
        return module


def _import_submodules(module, chain):
    """Imports chain[1], then chain[2] ... below `module` while each is a
    submodule its parent does not hold yet; stops at the first that is not
    one (an attribute, a function)."""
    for depth in range(1, len(chain) - 1):
        if hasattr(module, chain[depth]):
            module = getattr(module, chain[depth])
            continue
        try:
            module = importlib.import_module(".".join(chain[:depth + 1]))
        except ImportError:
            return


def interpreter():
    """The interpreter running the command, as its user would type it."""
    return sys.executable or "python3"


def _in_tools_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(TOOLS_PREFIX)


def _installed_modules():
    """The top-level modules this interpreter can import."""
    import pkgutil
    return sorted({module.name for module in pkgutil.iter_modules()} |
                  set(sys.builtin_module_names))


def install_hint(package, missing):
    """What to do where `package` does not import: a module of this
    interpreter whose name is close (a typo), else run the command with the
    venv's interpreter (outside any venv, or where the module is missing
    altogether), else install what provides it. Never an install of the name
    as typed: a mistyped name may be another project's on PyPI."""
    # The module itself is no typo where it is there but fails to import.
    others = [name for name in _installed_modules() if name != package]
    close = difflib.get_close_matches(package, others, n=3, cutoff=0.75) if package else []
    if close:
        names = " or ".join(f"'{name}'" for name in close)
        return f"did you mean {names}? ({'it is' if len(close) == 1 else 'they are'} " \
               f"importable in {interpreter()})"
    install = (f"install the package that provides the module '{package}' into "
               f"{interpreter()} (its name on PyPI may differ)") if package else \
        f"install the module into {interpreter()}"
    outside_a_venv = sys.prefix == sys.base_prefix
    if _in_tools_venv() or not (outside_a_venv or missing):
        return install
    tools_python = os.path.join(TOOLS_PREFIX, "bin", "python")
    setup = "scripts/setup.sh installs the peers there" if os.path.exists(tools_python) else \
        "scripts/setup.sh makes it and installs the peers there: run it first"
    return f"run {tools_python} -m dlpack_usm ... ({setup}), or {install}"


def _import_failure(error, name=None):
    """The usage error of an import EXPR needs that fails: `name` the module
    EXPR names, None for an import inside the code EXPR runs."""
    missing = error.name if isinstance(error, ModuleNotFoundError) and error.name else None
    if missing:
        what = f"no module named {missing!r} for this interpreter ({interpreter()})"
    else:
        what = f"{describe_exception(error)} in this interpreter ({interpreter()})"
    if name is not None:
        what = f"EXPR names {name!r}, which is no builtin and no importable module: {what}"
    else:
        what = f"evaluating EXPR failed: {what}"
    package = (missing or name or "").split(".")[0]
    return BridgeError(what, install_hint(package, bool(missing)))


def evaluate(expression):
    try:
        names = _Modules(expression)
        return eval(expression, {"__builtins__": builtins}, names)  # noqa: S307 - the user's own expression
    except SyntaxError as error:
        raise BridgeError(f"EXPR is not a Python expression: {error.msg}",
                          "quote it, e.g. \"numpy.arange(6).reshape(2, 3)\"") from None
    except _NoModule as error:
        raise _import_failure(error.error, error.module) from None
    except ImportError as error:
        raise _import_failure(error) from None
    except BaseException as error:  # noqa: B036 - SystemExit from the user's code ends nothing
        raise BridgeError(f"evaluating EXPR raised {type(error).__name__}: {error}",
                          f"check the expression in {interpreter()} first") from None
