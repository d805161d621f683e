"""EXPR, the Python expression a command checks: evaluated with every
module it names (numpy, dpnp, torch, ...) imported on first use."""

import builtins
import importlib

from ._bridge.errors import BridgeError


class _Modules(dict):
    """Names an expression uses that are not builtins: imported on demand."""

    def __missing__(self, name):
        if hasattr(builtins, name):
            raise KeyError(name)
        try:
            module = importlib.import_module(name)
        except ImportError:
            raise NameError(f"name {name!r} is not defined and is no importable module") \
                from None
        self[name] = module
        return module


def evaluate(expression):
    try:
        return eval(expression, {"__builtins__": builtins}, _Modules())  # noqa: S307 - the user's own expression
    except SyntaxError as error:
        raise BridgeError(f"EXPR is not a Python expression: {error.msg}",
                          "quote it, e.g. \"numpy.arange(6).reshape(2, 3)\"") from None
    except BaseException as error:  # noqa: B036 - SystemExit from the user's code ends nothing
        raise BridgeError(f"evaluating EXPR raised {type(error).__name__}: {error}",
                          "check the expression in python3 first") from None
