"""The library under test, in the worker: imported (its EXPR evaluated)
once, before the worker says it is ready, and described for the probe
(src/suite/cases/python/python_probe.hpp): its name and version, the
versions of the packages it imported, a library's devices (and the DLPack
device and memory an array made on each exports), the CUDA devices a
consumer's stream case can use."""

import sys
import types

from .._bridge import capsules, library
from .._bridge.errors import BridgeError
from .._expression import evaluate
from .._package_version import package_version
from ..producer._inspect import producer_label
from ..profile import _library

# The packages whose versions a report names when they were imported.
KNOWN_PACKAGES = ("numpy", "dpnp", "dpctl", "torch", "cupy", "jax", "jaxlib", "array_api_strict",
                  "tensorflow", "paddle", "warp", "mlx", "ndonnx", "tvm_ffi", "sklearnex")


def package_versions():
    """The versions of the packages people ask about, among those imported."""
    return {name: package_version(name) for name in KNOWN_PACKAGES if name in sys.modules}


def cuda_devices():
    """The ordinals of the CUDA devices cupy sees: the stream case needs
    cupy to make its vector; none where cupy or a device is missing."""
    try:
        import cupy
        return list(range(cupy.cuda.runtime.getDeviceCount()))
    except Exception:  # noqa: BLE001 - no cupy, no driver, no device: no stream case
        return []


def consumer_of(expr):
    """The callable the Python expression EXPR gives; BridgeError where it
    gives something else."""
    return consumer_of_object(evaluate(expr))


def consumer_of_object(consumer):
    """`consumer`, where it is callable; BridgeError where it is not."""
    if not callable(consumer):
        raise BridgeError(f"EXPR gives {type(consumer).__name__}, not a callable consumer",
                          "name a function that takes an array, e.g. numpy.from_dlpack")
    return consumer


class Target:
    """What the batch's "target" names: role, text and the options."""

    def __init__(self, spec):
        self.role = spec["role"]
        self.text = spec["text"]
        self.spec = spec
        self.obj = self.consumer = self.namespace = None

    def prepare(self):
        """Loads the bridge and imports the library (BridgeError where either
        cannot be: exit 3 for the bridge, 2 for an EXPR that names no module
        or gives no producer)."""
        library.library()
        if self.role == "producer":
            self.obj = evaluate(self.text)
            if not hasattr(type(self.obj), "__dlpack__") and not hasattr(self.obj, "__dlpack__"):
                raise BridgeError(f"EXPR gives {capsules.describe(self.obj)}, which has no "
                                  "__dlpack__ method",
                                  "pass an array that supports DLPack (numpy, dpnp, torch, ...)")
        elif self.role == "consumer":
            self.consumer = consumer_of(self.text)
        elif self.role == "handoff":
            self._prepare_handoff()
        else:
            self.namespace = _library.import_namespace(self.text)

    def _prepare_handoff(self):
        """The producer: a MODULE's namespace (the cells are made with it) or
        EXPR's object; the consumer: a MODULE's from_dlpack or EXPR's
        callable."""
        producer = evaluate(self.text)
        if isinstance(producer, types.ModuleType):
            self.namespace = _library.import_namespace(self.text)
        elif hasattr(type(producer), "__dlpack__") or hasattr(producer, "__dlpack__"):
            self.obj = producer
        else:
            raise BridgeError(f"PRODUCER gives {capsules.describe(producer)}: neither an array "
                              "with __dlpack__ nor a module",
                              "name an array (\"numpy.ones(4)\") or a library (dpnp, torch)")
        consumer = evaluate(self.spec["consumer"])
        # How the story names the consumer: a MODULE's from_dlpack by its name.
        self.consumer_text = self.spec["consumer"]
        if isinstance(consumer, types.ModuleType):
            self.consumer_text += ".from_dlpack"
            consumer = getattr(consumer, "from_dlpack", None)
            if not callable(consumer):
                raise BridgeError(f"{self.spec['consumer']} has no from_dlpack()",
                                  "name the consumer function, e.g. torch.utils.dlpack.from_dlpack")
        self.consumer = consumer_of_object(consumer)

    def from_dlpack(self):
        """The consumer of a consumer case: EXPR's callable, or the
        library's from_dlpack."""
        if self.consumer is None:
            function = getattr(self.namespace, "from_dlpack", None)
            if not callable(function):
                raise BridgeError(f"{self.text} has no from_dlpack()",
                                  "profile it with --side producer")
            self.consumer = function
        return self.consumer

    def describe(self):
        if self.role == "handoff":
            return self._describe_handoff()
        if self.role == "producer":
            module, version, kind = producer_label(self.obj)
            described = {"name": module, "version": version, "kind": kind}
        elif self.role == "consumer":
            top = self.text.split(".")[0].split("(")[0]
            described = {"name": top, "version": package_version(top)}
        else:
            described = _library.describe(self.text)
            described["devices"] = _library.discover_with_memory(
                self.namespace, self.spec.get("library_devices") or None)
            described["has_from_dlpack"] = callable(getattr(self.namespace, "from_dlpack", None))
        if self.role != "producer":
            described["cuda_devices"] = cuda_devices()
        described["packages"] = package_versions()
        return described

    def _describe_handoff(self):
        """Both libraries (name, version), the producer's devices where it is a
        namespace, and the packages they imported."""
        if self.obj is not None:
            module, version, kind = producer_label(self.obj)
            producer = {"name": module, "version": version, "kind": kind}
        else:
            producer = dict(_library.describe(self.text), kind="module")
        top = self.spec["consumer"].split(".")[0].split("(")[0]
        consumer = {"name": top, "version": package_version(top)}
        described = {"name": f"{producer['name']} to {consumer['name']}",
                     "version": f"{producer['version']}, {consumer['version']}",
                     "producer": producer, "consumer": consumer,
                     "packages": package_versions()}
        if self.namespace is not None:
            described["devices"] = _library.discover_with_memory(
                self.namespace, self.spec.get("library_devices") or None)
        return described
