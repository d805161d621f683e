"""The one error type of the package, with the command line's exit codes."""


class BridgeError(Exception):
    """What went wrong, what to do about it, and the exit code class of
    dlpack-usm it belongs to (2 usage, 3 environment, 4 internal)."""

    def __init__(self, message, hint="", exit_code=2):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code


class NotApplicable(BridgeError):
    """Nothing to judge, for a reason that is no fault: the producer refused
    to export as the protocol requires it to (exit code 0)."""

    def __init__(self, message):
        super().__init__(message, "", exit_code=0)


class UnreadableTensor(BridgeError):
    """The bridge found a pointer of the tensor (the struct, shape or
    strides: `field`) leading to memory it cannot read; a finding about the
    producer (exit code 1)."""

    def __init__(self, message, hint, field):
        super().__init__(message, hint, exit_code=1)
        self.field = field


class ProducerRaised(BridgeError):
    """Producer code (`call`, e.g. "__dlpack__(max_version=(1, 3))") raised
    `error`, which may be SystemExit or KeyboardInterrupt: a finding about
    the producer, never the end of the check."""

    def __init__(self, call, error):
        super().__init__(f"{call} raised {describe_exception(error)}", exit_code=1)
        self.call = call
        self.error = error


def describe_exception(error):
    """"RuntimeError (no tensor today)": the type and what it says (an
    exception of foreign code may fail to say it)."""
    try:
        text = str(error)
    except BaseException:  # noqa: B036 - its __str__ is foreign code too
        text = "its str() raised"
    return f"{type(error).__name__} ({text})" if text else type(error).__name__
