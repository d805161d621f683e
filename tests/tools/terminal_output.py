"""What a program wrote on a pseudo-terminal: the terminal tests start the
tool with a pty's slave side as its stdout or stderr, and read the master
side here until the tool closes the terminal."""

import os


def read_until_closed(master):
    """Every byte written to the terminal whose master side is `master`, read
    until the last writer closes it (EIO on Linux); closes `master`."""
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the tool closed the terminal
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    return data
