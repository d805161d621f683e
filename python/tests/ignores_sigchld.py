"""An array namespace (numpy's) whose import makes the process ignore
SIGCHLD: its children are reaped by the kernel, and waiting for one fails."""
import signal

from numpy import *  # noqa: F401,F403 - numpy's namespace, as the library's
from numpy import __version__  # noqa: F401

signal.signal(signal.SIGCHLD, signal.SIG_IGN)
