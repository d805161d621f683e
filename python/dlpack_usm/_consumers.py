"""Which real consumer takes a capsule to show its ownership handling:
numpy for host memory, dpnp for kDLOneAPI USM, where they are importable."""

from . import _tensor_json


def _importable(module, attribute):
    try:
        return getattr(__import__(module), attribute)
    except ImportError:
        return None


def choose(consumer, base):
    if consumer != "auto":
        return consumer
    device = _tensor_json.device(base.capsule)
    if device is None:
        return None
    if device[0] == _tensor_json.KDL_CPU:
        return _importable("numpy", "from_dlpack")
    if device[0] == _tensor_json.KDL_ONEAPI:
        return _importable("dpnp", "from_dlpack")
    return None
