"""The status line of a consumer check whose stderr is a log, not a
terminal: every DLPACK_USM_STATUS_INTERVAL_S seconds (30 by default, 0 for
none), also while a case hangs, in the shape `dlpack-usm check` prints, so
that a CI log never goes silent for long."""

import math
import os
import sys
import time

from .._bridge.errors import BridgeError

DEFAULT_INTERVAL_S = 30.0
MAX_INTERVAL_S = 86400.0
VARIABLE = "DLPACK_USM_STATUS_INTERVAL_S"
# The statuses a line always shows; the others only where a case had them.
ALWAYS = ("pass", "fail")
SOMETIMES = ("warn", "not_supported", "not_applicable", "not_run")


def interval_from_environment():
    """DLPACK_USM_STATUS_INTERVAL_S in seconds, or the default where it is
    unset; BridgeError (exit 2) for a value that is no number of seconds
    from 0 to a day."""
    text = os.environ.get(VARIABLE, "")
    if not text:
        return DEFAULT_INTERVAL_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_INTERVAL_S:
        raise BridgeError(f"{VARIABLE}={text!r} is not a number of seconds from 0 to "
                          f"{MAX_INTERVAL_S:g}",
                          "set it to the seconds between status lines (e.g. 30; 0 for none), "
                          "or unset it")
    return seconds


def elapsed_text(seconds):
    """1:02, or 1:01:02 once there are hours."""
    seconds = max(0, int(seconds))
    if seconds < 3600:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def status_line(results, total, elapsed_s):
    """"[12/120] pass 10 fail 2 crash 1 hang 1 · 0:31 elapsed": the cases
    finished by status (pass and fail always), then how many of them
    crashed or hung."""
    counts = {}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
        counts[result["outcome"]] = counts.get(result["outcome"], 0) + 1
    parts = [f"[{len(results)}/{total}]"]
    for status in ALWAYS + SOMETIMES:
        if status in ALWAYS or counts.get(status):
            parts.append(f"{status} {counts.get(status, 0)}")
    parts += [f"crash {counts.get('crash', 0)}", f"hang {counts.get('hang', 0)}"]
    return " ".join(parts) + f" \u00b7 {elapsed_text(elapsed_s)} elapsed"


class StatusLines:
    """Prints status_line on `stream` once per interval, from tick(); the
    results come from count() as the cases finish."""

    def __init__(self, total, interval_s, stream=None, clock=time.monotonic):
        self.total, self.interval_s, self.clock = total, interval_s, clock
        self.stream = stream if stream is not None else sys.stderr
        self.results = []
        self.started = clock()
        self.next = self.started + interval_s

    def count(self, result):
        self.results.append(result)

    def tick(self):
        now = self.clock()
        if self.interval_s <= 0 or now < self.next:
            return
        while self.next <= now:  # a late tick gives one line, not a burst
            self.next += self.interval_s
        print(status_line(self.results, self.total, now - self.started), file=self.stream,
              flush=True)
