"""A library whose every word is hostile (issue 36): its version, its
exceptions and its capsules' refusals carry GitHub workflow commands (the
legacy "##[...]" anywhere in a line, "::...::" at a line's start), C0 and
C1 controls, a bidirectional override, XML's non-characters and HTML, so
that every output of the tool can be read back by its consumer's own rules
and shown to carry them as text only."""

HOSTILE = ("##[add-mask]FAILED \x1b[31mred\x1b[0m \x9b31m \u202eexe.txt \x85 "
           "\ufffe\uffff <img src=x onerror=alert(1)> </summary><img src=y> | `x` *y* "
           "\n::error file=a,line=1::forged\r\n##[endgroup]")
__version__ = HOSTILE


class Array:
    """A producer that refuses everything it is asked, in hostile words."""

    def __dlpack_device__(self):
        raise RuntimeError(HOSTILE)

    def __dlpack__(self, **keywords):
        raise RuntimeError(HOSTILE)


def asarray(obj, **keywords):
    """The profile makes its arrays with asarray: each is a hostile Array."""
    return Array()


def ones(*shape, **keywords):
    return Array()


def from_dlpack(obj, **keywords):
    """A consumer that refuses every tensor, in hostile words."""
    raise ValueError(HOSTILE)
