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

from . import (_consumers, _contained, _cuda, _exchange_api, _exportable, _protocol, _sycl,
               _tensor_json)
from ._consumer_check import ConsumerCheck, check_consumer
from ._errors import BridgeError, NotApplicable, ProducerRaised, UnreadableTensor
from ._inspect import DEFAULT_MAX_VERSION, Inspection, capture, inspect, producer_label
from ._library import tool_version
from .rules import Finding, PythonRule, catalog, finding

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
    describe: refusing those is DLP-PY-EXPORT-RAISED's warning."""
    if origin is None:
        module, version, kind = producer_label(obj)
        origin = f"python:{module} {version} {kind}"
    try:
        try:
            base = inspect(obj, max_version, origin)
        except ProducerRaised:
            # A producer that refuses max_version with anything but TypeError
            # (DLP-PY-KEYWORD-TYPEERROR) is still judged on what __dlpack__() gives.
            base = inspect(obj, None, origin)
    except ProducerRaised as raised:
        reason = _sycl.export_refusal(obj, raised.error)
        if reason is not None:
            raise NotApplicable(reason) from None
        exportable = _exportable.describe(obj)
        if exportable is None:
            # A producer may decline any export: nothing to judge.
            raise NotApplicable(f"{raised.message}: the producer declines to export this object; "
                                "there is no tensor to check") from None
        return None, [finding("DLP-PY-EXPORT-RAISED", "__dlpack__",
                              f"{raised.message} instead of returning a capsule, but "
                              f"{exportable}; there is no tensor to check")]
    except UnreadableTensor as unreadable:
        return None, [_protocol.unreadable_finding(unreadable)]
    except BridgeError as error:
        if error.exit_code != 1:
            raise
        return None, [finding("DLP-PY-CAPSULE-NAME", "__dlpack__", error.message)]
    found = list(base.findings)
    found += _protocol.check_producer(obj, base, tuple(max_version), origin)
    stream_found, stream_notes = _cuda.check_streams(obj, _tensor_json.device(base.capsule),
                                                      tuple(max_version))
    found += stream_found
    base.notes.extend(stream_notes)
    found += _sycl.check_usm_array_interface(obj, base)
    found += _exchange_api.check_exchange_api(obj, base, origin)
    chosen = _consumers.choose(consumer, base)
    if chosen is not None:
        # A tensor the rules flagged may crash the consumer (dpnp.from_dlpack
        # aborts the interpreter on some): the probe then runs in a child.
        if any(item.severity == "error" for item in found):
            consumer_found, note = _contained.check_consumer(obj, chosen, tuple(max_version))
            found += consumer_found
            if note:
                base.notes.append(note)
        else:
            found += _protocol.check_consumer(obj, chosen, tuple(max_version))
    return base, found


def check(obj, max_version=DEFAULT_MAX_VERSION, consumer="auto"):
    """The findings (a list of Finding) of check_report."""
    return check_report(obj, max_version, consumer)[1]
