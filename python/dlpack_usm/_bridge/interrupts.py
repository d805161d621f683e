"""SIGTERM, SIGINT and SIGHUP end a command's run with its report: within
stopping_on_signals(), the first of them raises Interrupted where the
command is (waiting for a case, most of the time), which kills what runs
and marks the cases it did not finish as not run; the signals after it wait
until the report is written. Outside the commands (the Python API) the
signals keep their usual meaning."""

import contextlib
import signal

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class Interrupted(BaseException):
    """A stop signal arrived: no `except Exception` may take it for an error
    of the code under test."""

    def __init__(self, signum):
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(f"interrupted by {self.name}")


def exit_code(signal_name):
    """128 + the signal's number, as the shell and the C++ check report a
    run a signal stopped (SIGTERM: 143)."""
    return 128 + signal.Signals[signal_name].value


@contextlib.contextmanager
def stopping_on_signals():
    """Turns the first stop signal into Interrupted, and ignores the rest,
    until the block ends; then restores the handlers there were."""
    received = []

    def stop(signum, frame):
        if not received:
            received.append(signum)
            raise Interrupted(signum)

    previous = {signum: signal.signal(signum, stop) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
