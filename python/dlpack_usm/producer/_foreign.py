"""Calls into the code under test, announced. A contained check
(_contained) listens: it is told of each call before it is made and
once it returned, so that a call that never returns (an exit, a signal, a
hang) can be named by the parent, and a process that ends between calls is
known to have ended in a finalizer or another hook of the producer. Where
nobody listens (the Python API), announcing costs nothing."""

import contextlib

_listener = None

# A call that makes what the cases of a setup group share (the array of a
# profile's cell) starts so: the runner charges a crash or hang there to
# every case of the group (src/suite/runner/worker_calls.hpp).
MAKING = "making "


def listen(function):
    """function(kind, payload) hears every call from now on ("C" before a
    call, "D" once it returned); None stops it."""
    global _listener
    _listener = function


@contextlib.contextmanager
def calling(description, consumer=False):
    """Announces a call into foreign code: the producer's, or a consumer's
    (`consumer`: numpy.from_dlpack in the consumer probe), whose end is a
    note about the consumer rather than a finding about the producer."""
    if _listener is not None:
        _listener("C", {"call": description, "consumer": consumer})
    try:
        yield
    finally:  # a call that raised returned too; one that ended the process did not
        if _listener is not None:
            _listener("D", {"call": description})
