"""numpy's array API namespace, except that broadcast_to sends SIGKILL to
the process that started the caller's (its worker's guard, or in a PID
namespace its init): `profile kills_parent_namespace` must charge the
broadcast cell with a crash, write its report and leave no process behind.
kills_group_namespace does the same to its whole process group."""

import os
import signal

import numpy
from numpy import *  # noqa: F401,F403 - the namespace is numpy's

__array_namespace_info__ = numpy.__array_namespace_info__


def broadcast_to(x, shape):
    os.kill(os.getppid(), signal.SIGKILL)
    return numpy.broadcast_to(x, shape)
