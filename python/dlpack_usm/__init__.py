"""dlpack_usm: check DLPack tensors made in Python with the dlpack-usm rule
catalog, through libdlpack_usm (ctypes; no compiler needed).

    import numpy, dlpack_usm
    dlpack_usm.inspect(numpy.arange(6))        # the facts, as `capsule dump` shows them
    dlpack_usm.check(numpy.arange(6))          # the findings: tensor rules and protocol rules
    dlpack_usm.capture(numpy.arange(6), "a.json")  # a capsule file for `capsule check`
    dlpack_usm.check_consumer(numpy.from_dlpack)  # the consumer matrix offered to numpy

The library is found through DLPACK_USM_LIBRARY, else where CMake put it for
this copy of the package. `python3 -m dlpack_usm --help` is the command line;
man dlpack-usm-python(7) documents both."""

from . import _check_steps
from ._consumer_check import ConsumerCheck, check_consumer
from ._errors import BridgeError, NotApplicable
from ._inspect import DEFAULT_MAX_VERSION, Inspection, capture, inspect
from ._library import tool_version
from .rules import Finding, PythonRule, catalog

__all__ = ["BridgeError", "CATALOG", "ConsumerCheck", "DEFAULT_MAX_VERSION", "Finding",
           "Inspection", "NotApplicable", "PythonRule", "capture", "catalog", "check",
           "check_consumer", "check_report", "inspect", "tool_version"]


def __getattr__(name):
    # The Python family of the tool's rule catalog, read through the library
    # when first used.
    if name == "CATALOG":
        return catalog()
    raise AttributeError(name)


def check_report(obj, max_version=DEFAULT_MAX_VERSION, consumer="auto", origin=None):
    """(Inspection or None, findings): the tensor rules' findings on the
    capsule `obj.__dlpack__(max_version=...)` gives, then the protocol's.
    `consumer` is a callable such as numpy.from_dlpack whose handling of a
    consumed capsule is checked too, "auto" (numpy for kDLCPU, dpnp for
    kDLOneAPI, where importable) or None. A producer that declines the
    export itself is NotApplicable, with its reason, unless the array's own
    __array_interface__ (or CUDA's or SYCL's) shows elements DLPack can
    describe: refusing those is DLP-PY-EXPORT-RAISED's warning. The
    producer's code runs in this process: `python3 -m dlpack_usm check`
    runs it contained."""
    origin = _check_steps.origin_of(obj, origin)
    base, found = _check_steps.inspect_base(obj, max_version, origin)
    if base is None:
        return None, found
    check = _check_steps.Check(obj, base, tuple(max_version), origin, consumer,
                               flagged=any(item.severity == "error" for item in found))
    for index in range(len(_check_steps.STEPS)):
        found += _check_steps.run_step(check, index)
    return base, found


def check(obj, max_version=DEFAULT_MAX_VERSION, consumer="auto"):
    """The findings (a list of Finding) of check_report."""
    return check_report(obj, max_version, consumer)[1]
