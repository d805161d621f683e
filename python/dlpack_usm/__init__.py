"""dlpack_usm: check DLPack tensors made in Python with the dlpack-usm rule
catalog, through libdlpack_usm (ctypes; no compiler needed).

    import numpy, dlpack_usm
    dlpack_usm.inspect(numpy.arange(6))        # the facts, as `capsule dump` shows them
    dlpack_usm.check(numpy.arange(6))          # the findings: tensor rules and protocol rules
    dlpack_usm.capture(numpy.arange(6), "a.json")  # a capsule file for `capsule check`

Consumers and whole libraries are put under test by the tool's one runner,
contained, with every gate option: `python3 -m dlpack_usm consume
numpy.from_dlpack` and `python3 -m dlpack_usm profile numpy` run
`dlpack-usm check --python-consumer ...` and `--python-library ...`.

The library is found through DLPACK_USM_LIBRARY, else where CMake put it for
this copy of the package. `python3 -m dlpack_usm --help` is the command line;
man dlpack-usm-python(7) documents both."""

from ._bridge.errors import BridgeError, NotApplicable
from ._bridge.library import tool_version
from .producer import (DEFAULT_MAX_VERSION, Inspection, capture, check, check_report,
                       inspect)
from .rules import Finding, PythonRule, catalog

__all__ = ["BridgeError", "CATALOG", "DEFAULT_MAX_VERSION", "Finding", "Inspection",
           "NotApplicable", "PythonRule", "capture", "catalog", "check", "check_report", "inspect",
           "tool_version"]


def __getattr__(name):
    # The Python family of the tool's rule catalog, read through the library
    # when first used.
    if name == "CATALOG":
        return catalog()
    raise AttributeError(name)
