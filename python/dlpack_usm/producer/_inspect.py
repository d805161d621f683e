"""inspect and capture: ask an object for a capsule, read the tensor through
the bridge (the command line's facts reader and rule catalog), and release
the capsule so that the producer's destructor frees what it made."""

from dataclasses import dataclass, field

from .._bridge import capsules, dlpack, library, tensor_json
from .._bridge.errors import BridgeError, ProducerRaised
from .._package_version import package_version
from ..rules import Finding
from . import _cuda, _sycl
from ._foreign import calling

DEFAULT_MAX_VERSION = dlpack.NEWEST


@dataclass
class Inspection:
    """What the bridge read from one capsule: its name, the tensor in
    capsule-file form (the same JSON `dlpack-usm capsule dump` reads), what
    the reader had to do to stay safe, and the tensor rules' findings."""
    capsule_name: str
    capsule: dict
    reader_notes: list = field(default_factory=list)
    findings: list = field(default_factory=list)
    # What could not be judged, and why ("not applicable: ..."): a consumer
    # probe that crashed in its contained child process, say.
    notes: list = field(default_factory=list)
    # The tensor as `dlpack-usm capsule dump` shows it: its JSON form and
    # its text, from the command line's own walk.
    dump: dict = field(default_factory=dict)
    dump_text: str = ""


def producer_label(obj):
    """"numpy 2.4.6 ndarray": the producer's top-level package, its version
    and the object's type, for origins and file names."""
    # A class made by type() where no __name__ was in scope (an EXPR does
    # that) has no __module__.
    module = getattr(type(obj), "__module__", None)
    if not isinstance(module, str) or not module:
        return "unknown", "unknown", type(obj).__qualname__
    module = module.split(".")[0]
    version = "unknown"
    try:
        __import__(module)
        version = package_version(module)
    except BaseException:  # noqa: B036 - a producer that cannot be imported by name still gets a label
        pass
    return module, version, type(obj).__qualname__


def request_capsule(obj, max_version):
    """`obj.__dlpack__` as the array API's consumer logic calls it: with
    max_version, then without it where the producer raises TypeError."""
    method = call_producer("looking up __dlpack__", getattr, obj, "__dlpack__", None)
    if method is None:
        raise BridgeError(f"{capsules.describe(obj)} has no __dlpack__ method",
                          "pass an array that supports DLPack (numpy, dpnp, torch, ...)")
    if max_version is None:
        return call_producer("__dlpack__()", method)
    try:
        with calling(f"__dlpack__(max_version={tuple(max_version)!r})"):
            return method(max_version=tuple(max_version))
    except TypeError:
        return call_producer("__dlpack__()", method)
    except BaseException as error:  # noqa: B036 - SystemExit from a producer is a finding too
        raise ProducerRaised(f"__dlpack__(max_version={tuple(max_version)!r})",
                             error.with_traceback(None)) from None


def call_producer(call, function, *arguments, **keywords):
    """function(*arguments, **keywords), producer code named `call` in
    messages; whatever it raises, SystemExit and KeyboardInterrupt included,
    comes back as ProducerRaised (without its traceback, whose frames would
    keep the producer's objects alive)."""
    try:
        with calling(call):
            return function(*arguments, **keywords)
    except BaseException as error:  # noqa: B036 - the producer is the thing under test
        raise ProducerRaised(call, error.with_traceback(None)) from None


def read_capsule(capsule, origin, runtime=None, path=None):
    """Reads a tensor capsule without consuming it: the caller still owns
    the capsule and drops it afterwards."""
    name = capsules.capsule_name(capsule) if capsules.is_capsule(capsule) else None
    if name not in capsules.TENSOR_NAMES:
        raise BridgeError(f"__dlpack__ returned {capsules.describe(capsule)}, not a DLPack "
                          "tensor capsule (\"dltensor\" or \"dltensor_versioned\")",
                          "`python3 -m dlpack_usm check` reports this as DLP-PY-CAPSULE-NAME",
                          exit_code=1)
    return read_capsule_pointer(capsules.capsule_pointer(capsule, name), name, origin, runtime,
                                path)


def read_capsule_pointer(pointer, name, origin, runtime=None, path=None):
    """Reads the tensor at `pointer`, a DLManagedTensor ("dltensor") or a
    DLManagedTensorVersioned ("dltensor_versioned")."""
    request = {"origin": origin}
    if runtime is not None:
        request["runtime"] = runtime
    answer = library.call_inspect(pointer, name, request, path)
    return Inspection(name, answer["capsule"], answer["reader_notes"],
                      [Finding(**entry) for entry in answer["findings"]],
                      dump=answer["dump"], dump_text=answer["dump_text"])


def inspect_capsule(obj, capsule, origin, path=None):
    """The Inspection of `capsule`, which obj.__dlpack__ returned, read with
    its device's runtime facts (and written to `path` where given); the
    caller still owns the capsule and drops it afterwards."""
    inspection = read_capsule(capsule, origin)
    # kDLOneAPI facts need the producer's own SYCL runtime: only it knows
    # the context the pointer is bound to. CUDA facts come from the driver
    # of this process, which the producer shares.
    device = tensor_json.device(inspection.capsule)
    runtime, note = None, None
    if dlpack.on(device, "kDLOneAPI"):
        runtime = _sycl.runtime_facts(obj)
    elif dlpack.on(device, *_cuda.CUDA_DEVICE_TYPES):
        runtime, note = _cuda.runtime_facts(tensor_json.data_address(inspection.capsule))
    if runtime is not None or path is not None:
        inspection = read_capsule(capsule, origin, runtime, path)
    if note is not None:
        inspection.notes.append(note)
    return inspection


def _inspect(obj, max_version, origin, path):
    if origin is None:
        module, version, kind = producer_label(obj)
        origin = f"python:{module} {version} {kind}"
    capsule = request_capsule(obj, max_version)
    inspection = inspect_capsule(obj, capsule, origin, path)
    del capsule  # the producer's destructor frees the tensor now
    return inspection


def inspect(obj, max_version=DEFAULT_MAX_VERSION, origin=None):
    """Asks `obj` for a capsule (`__dlpack__(max_version=...)`, falling back
    to `__dlpack__()` on TypeError), reads it and returns an Inspection.
    Raises BridgeError when `obj` gives no tensor capsule."""
    return _inspect(obj, max_version, origin, None)


def capture(obj, path, max_version=DEFAULT_MAX_VERSION, origin=None):
    """As inspect, and writes the tensor as a capsule file to `path`, which
    `dlpack-usm capsule check` reads offline."""
    return _inspect(obj, max_version, origin, path)
