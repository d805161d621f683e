"""Calls into the code under test, announced. A Python worker of the tool's
runner (dlpack_usm._worker) listens: it is told of each call before it is
made and once it returned, and tells the runner, so that a call that never
returns (an exit, a signal, a hang) is charged to that call by name. Where
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
