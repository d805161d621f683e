"""The worker's end of the result channel (src/suite/runner/result_channel.hpp):
the runner hands it over on descriptor 3 and writes a nonce through it
first. The worker reads the nonce before any library is imported, moves the
descriptor to a random high number (closed on exec, so no program a library
starts inherits it) and points descriptor 3 at /dev/null, so that a library
writing there reaches nothing. Every line it sends starts with the nonce:
a line a library writes on the channel anyway is no record, and the runner
charges it to the running case. A fork of the library that comes back into
the worker's code ends there without a word."""

import json
import os
import random
import resource
import select

RESULT_FD = 3
NONCE_HEX_DIGITS = 32
NONCE_WAIT_S = 10
LOWEST_CHANNEL_FD = 100


def _read_nonce(fd):
    line = b""
    while len(line) <= NONCE_HEX_DIGITS:
        if not select.select([fd], [], [], NONCE_WAIT_S)[0]:
            return None
        byte = os.read(fd, 1)
        if not byte:
            return None
        if byte == b"\n":
            text = line.decode("ascii", "replace")
            hexadecimal = all(c in "0123456789abcdef" for c in text)
            return text if len(text) == NONCE_HEX_DIGITS and hexadecimal else None
        line += byte
    return None


def _free_high_descriptor():
    """A descriptor number not in use, picked at random above
    LOWEST_CHANNEL_FD, or None where the limit leaves no room."""
    top = min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1 << 16)
    if top <= 2 * LOWEST_CHANNEL_FD:
        return None
    for _ in range(32):
        wanted = random.SystemRandom().randrange(LOWEST_CHANNEL_FD, top)
        try:
            os.fstat(wanted)
        except OSError:
            return wanted
    return None


def _move_out_of_the_way(fd):
    """`fd` on a free, close-on-exec high descriptor; `fd` itself then names
    /dev/null, so a stray write there vanishes."""
    wanted = _free_high_descriptor()
    if wanted is not None:
        moved = os.dup2(fd, wanted, inheritable=False)
    else:
        moved = os.dup(fd)
        os.set_inheritable(moved, False)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, fd)
    os.close(null)
    return moved


class ResultChannel:
    """send(payload): one framed line; the owner process alone sends."""

    def __init__(self):
        nonce = _read_nonce(RESULT_FD)
        if nonce is None:
            raise SystemExit("dlpack_usm._worker: no result channel on descriptor 3: the worker "
                             "is started by `dlpack-usm check`, not by hand")
        self.nonce = nonce
        self.fd = _move_out_of_the_way(RESULT_FD)
        self.owner = os.getpid()

    def send(self, payload):
        if os.getpid() != self.owner:
            os._exit(0)  # a fork of the library came back into the worker's code
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        data = f"{self.nonce} {text}\n".encode("utf-8", "replace")
        while data:
            data = data[os.write(self.fd, data):]
