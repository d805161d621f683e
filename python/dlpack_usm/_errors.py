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
