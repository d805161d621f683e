"""Whether an array a producer refused to export holds elements DLPack can
describe, as the array itself says through the interfaces that predate
DLPack: __array_interface__ (host memory), __cuda_array_interface__ and
__sycl_usm_array_interface__. A producer may decline any export; refusing
such an array is DLP-PY-EXPORT-RAISED's warning, refusing anything else is a
decline."""

import sys

from ._foreign import calling

INTERFACES = ("__array_interface__", "__cuda_array_interface__",
              "__sycl_usm_array_interface__")
# typestr kinds and the widths (bytes) DLPack has a dtype for.
DLPACK_WIDTHS = {"b": (1,), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "f": (2, 4, 8),
                 "c": (8, 16)}
NATIVE = "<" if sys.byteorder == "little" else ">"


def _interface(obj):
    """(name, dictionary) of the first interface the object answers, or None.
    Whatever the object raises while answering (SystemExit included) makes
    it say nothing."""
    for name in INTERFACES:
        try:
            with calling(name):
                found = getattr(obj, name, None)
        except BaseException:  # noqa: B036 - a hostile attribute is no interface
            continue
        if isinstance(found, dict):
            return name, found
    return None


def _describable(description):
    """Why DLPack describes the elements of `description` (an interface's
    dictionary), or None where it cannot (a byte order, a width or a
    stride it has no way to say)."""
    typestr, shape = description.get("typestr"), description.get("shape")
    if not isinstance(typestr, str) or len(typestr) < 3 or not isinstance(shape, tuple):
        return None
    order, kind, width = typestr[0], typestr[1], typestr[2:]
    if order not in ("|", NATIVE) or not width.isdigit() or \
            int(width) not in DLPACK_WIDTHS.get(kind, ()):
        return None
    strides = description.get("strides")
    if strides is not None and (not isinstance(strides, tuple) or
                                any(not isinstance(s, int) or s % int(width) for s in strides)):
        return None
    return f"elements of type {typestr} and shape {shape}"


def describe(obj):
    """A phrase saying which interface of `obj` shows elements DLPack can
    describe, or None."""
    found = _interface(obj)
    if found is None:
        return None
    name, description = found
    elements = _describable(description)
    return None if elements is None else f"its {name} shows {elements}, which DLPack describes"
