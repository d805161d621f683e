"""The arrays of a producer profile, one per cell, each made through the
library's array API namespace with the standard's functions only (zeros,
ones, arange, reshape, asarray, permute_dims, flip, broadcast_to, slicing),
so that one program serves every conforming library. The cells are named
as the consumer matrix names its cells where both have one (dtype-int8,
f-order, negative-stride, ndim-3, read-only), so that a row of the
compatibility matrix reads the same in both directions."""

import ctypes
from dataclasses import dataclass

# The cells themselves (their names, axes and values, the reference
# c-order first) are planned by the core: src/suite/cases/python/
# python_profile_cells.cpp. This module knows how to make each.


class NotMade(Exception):
    """The cell cannot be made in this library: the reason says why (a
    function or dtype the namespace lacks, or what it raised)."""


@dataclass(frozen=True)
class Cell:
    name: str  # "dtype-int8", "f-order", "ndim-3", ...
    axis: str  # "dtype", "layout", "ndim", "size0", "read-only"
    value: str  # "int8", "f-order", "3", "2d", "read-only"
    # make(namespace, device, keep) -> the array, or raises NotMade; `keep`
    # holds what must outlive the array's export (a buffer it views)
    make: object
    description: str  # how it is made, for the report and the manual


def function(xp, name):
    """The namespace's function `name`; NotMade where it has none."""
    found = getattr(xp, name, None)
    if found is None:
        raise NotMade(f"the namespace has no {name}()")
    return found


def dtype(xp, name):
    """The namespace's dtype `name`; NotMade where it has none."""
    found = getattr(xp, name, None)
    if found is None:
        raise NotMade(f"the namespace has no dtype {name}")
    return found


def on(device):
    """The keywords that make an array on `device`: none for the default
    device (None), so that a namespace whose functions lack the standard's
    device keyword still makes arrays there."""
    return {} if device is None else {"device": device}


def _grid(xp, device):
    """3 x 5 float32, C order: arange(15) reshaped."""
    values = function(xp, "arange")(15, dtype=dtype(xp, "float32"), **on(device))
    return function(xp, "reshape")(values, (3, 5))


def _ones(xp, device, shape, name="float32"):
    return function(xp, "ones")(shape, dtype=dtype(xp, name), **on(device))


def _same_dtype(xp, array, name):
    """NotMade where the namespace made another dtype than asked for (JAX
    without 64-bit types makes float32 of float64)."""
    wanted = dtype(xp, name)
    if array.dtype != wanted:
        raise NotMade(f"ones(dtype={name}) made an array of dtype {array.dtype}")
    return array


def _transposed(xp, device):
    grid = _grid(xp, device)
    permute = getattr(xp, "permute_dims", None)
    # permute_dims or the standard's .T: both are the standard's transpose.
    return permute(grid, (1, 0)) if permute is not None else grid.T


def _read_only(xp, device, keep):
    """asarray(copy=False) of a read-only buffer (bytes): the only array
    over memory the process cannot write that the standard can ask for. The
    buffer's address is kept in `keep` to tell a view of it from a copy."""
    buffer = bytes(4 * 15)
    keep["buffer"] = buffer
    keep["address"] = ctypes.cast(ctypes.c_char_p(buffer), ctypes.c_void_p).value
    view = memoryview(buffer).cast("f", (3, 5))
    return function(xp, "asarray")(view, dtype=dtype(xp, "float32"), copy=False, **on(device))


def _dtype_cell(name):
    return Cell(f"dtype-{name}", "dtype", name,
                lambda xp, device, keep: _same_dtype(xp, _ones(xp, device, (3, 5), name), name),
                f"ones((3, 5), dtype={name})")


def _ndim_cell(ndim):
    shape = (2,) * ndim if ndim <= 8 else tuple(2 if k in (0, 20, 39) else 1 for k in range(ndim))
    return Cell(f"ndim-{ndim}", "ndim", str(ndim),
                lambda xp, device, keep: _ones(xp, device, shape),
                f"ones({shape if ndim <= 8 else 'a shape of 40 axes, three of extent 2'})")


def _layouts():
    """The layout cells' makers, by name."""
    return {
        "c-order": (lambda xp, device, keep: _grid(xp, device),
                    "reshape(arange(15, dtype=float32), (3, 5))"),
        "f-order": (lambda xp, device, keep: _transposed(xp, device),
                    "permute_dims(c-order, (1, 0)), or its .T where there is no permute_dims"),
        "strided": (lambda xp, device, keep: _grid(xp, device)[:, ::2], "c-order[:, ::2]"),
        "negative-stride": (lambda xp, device, keep: function(xp, "flip")(_grid(xp, device),
                                                                           axis=1),
                            "flip(c-order, axis=1)"),
        "broadcast": (lambda xp, device, keep: function(xp, "broadcast_to")(
            function(xp, "arange")(5, dtype=dtype(xp, "float32"), **on(device)), (3, 5)),
            "broadcast_to(arange(5, dtype=float32), (3, 5))"),
        "byte-offset": (lambda xp, device, keep: _grid(xp, device)[1:, :], "c-order[1:, :]"),
    }


def _size0():
    """The size-0 cells' makers, by value."""
    return {
        "1d": (lambda xp, device, keep: _ones(xp, device, (0,)), "ones((0,))"),
        "2d": (lambda xp, device, keep: _ones(xp, device, (0, 5)), "ones((0, 5))"),
        "view": (lambda xp, device, keep: _grid(xp, device)[2:2, :], "c-order[2:2, :]"),
    }


def cell(name, axis, value):
    """The Cell the plan names (its name, axis and value); NotMade for one
    this module cannot make."""
    if axis == "dtype":
        return _dtype_cell(value)
    if axis == "ndim":
        return _ndim_cell(int(value))
    if axis == "read-only":
        return Cell(name, axis, value, _read_only,
                    "asarray(a read-only float32 buffer, dtype=float32, copy=False)")
    makers = _layouts() if axis == "layout" else _size0() if axis == "size0" else {}
    key = name if axis == "layout" else value
    if key not in makers:
        raise NotMade(f"the worker knows no cell {name} (axis {axis}, value {value})")
    make, description = makers[key]
    return Cell(name, axis, value, make, description)
