"""kills_parent_namespace, but broadcast_to sends SIGKILL to its whole
process group."""

import os
import signal

import numpy
from kills_parent_namespace import *  # noqa: F401,F403 - numpy's namespace
from kills_parent_namespace import __array_namespace_info__  # noqa: F401


def broadcast_to(x, shape):
    os.killpg(0, signal.SIGKILL)
    return numpy.broadcast_to(x, shape)
