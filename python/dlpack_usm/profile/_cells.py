"""The arrays of a producer profile, one per cell, each made through the
library's array API namespace with the standard's functions only (zeros,
ones, arange, reshape, asarray, permute_dims, flip, broadcast_to, slicing),
so that one program serves every conforming library. The cells are named
as the consumer matrix names its cells where both have one (dtype-int8,
f-order, negative-stride, ndim-3, read-only), so that a row of the
compatibility matrix reads the same in both directions."""

import ctypes
from dataclasses import dataclass

# The dtypes the array API standard names, and two more where the
# namespace has them: the consumer matrix offers float16 and bfloat16 too.
STANDARD_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                   "uint64", "float32", "float64", "complex64", "complex128")
EXTRA_DTYPES = ("float16", "bfloat16")
# ndim 0 to 8 with extent 2, and 40, as the consumer matrix has them.
NDIMS = tuple(range(9)) + (40,)
# The reference array: every request of the profile is asked of it.
REFERENCE = "c-order"


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


def _layout_cells():
    return [
        Cell(REFERENCE, "layout", REFERENCE, lambda xp, device, keep: _grid(xp, device),
             "reshape(arange(15, dtype=float32), (3, 5))"),
        Cell("f-order", "layout", "f-order", lambda xp, device, keep: _transposed(xp, device),
             "permute_dims(c-order, (1, 0)), or its .T where there is no permute_dims"),
        Cell("strided", "layout", "strided",
             lambda xp, device, keep: _grid(xp, device)[:, ::2], "c-order[:, ::2]"),
        Cell("negative-stride", "layout", "negative-stride",
             lambda xp, device, keep: function(xp, "flip")(_grid(xp, device), axis=1),
             "flip(c-order, axis=1)"),
        Cell("broadcast", "layout", "broadcast",
             lambda xp, device, keep: function(xp, "broadcast_to")(
                 function(xp, "arange")(5, dtype=dtype(xp, "float32"), **on(device)), (3, 5)),
             "broadcast_to(arange(5, dtype=float32), (3, 5))"),
        Cell("byte-offset", "layout", "byte-offset",
             lambda xp, device, keep: _grid(xp, device)[1:, :], "c-order[1:, :]"),
    ]


def _size0_cells():
    return [
        Cell("size0-1d", "size0", "1d", lambda xp, device, keep: _ones(xp, device, (0,)),
             "ones((0,))"),
        Cell("size0-2d", "size0", "2d", lambda xp, device, keep: _ones(xp, device, (0, 5)),
             "ones((0, 5))"),
        Cell("size0-view", "size0", "view",
             lambda xp, device, keep: _grid(xp, device)[2:2, :], "c-order[2:2, :]"),
    ]


def cells():
    """Every cell, the reference first."""
    return (_layout_cells() + [_dtype_cell(name) for name in STANDARD_DTYPES + EXTRA_DTYPES] +
            [_ndim_cell(ndim) for ndim in NDIMS] + _size0_cells() +
            [Cell("read-only", "read-only", "read-only", _read_only,
                  "asarray(a read-only float32 buffer, dtype=float32, copy=False)")])
