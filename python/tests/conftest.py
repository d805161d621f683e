"""Shared fixtures. Real peers (numpy, array-api-strict, dpnp/dpctl) are
required, not optional, where CI says so: DLPACK_USM_REQUIRE_PEERS=1, or
DLPACK_USM_REQUIRE_USM=1 which CI sets after scripts/setup.sh installed
them. Elsewhere a missing peer skips its tests with the reason."""

import importlib
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "tests", "tools"))
from optional_module import missing_message, required as peers_required  # noqa: E402


def require(module):
    try:
        return importlib.import_module(module)
    except Exception as error:  # dpctl raises more than ImportError when SYCL cannot start
        message = missing_message(module, error)
        if peers_required():
            pytest.fail(message + " (peers are required here)")
        pytest.skip(message, allow_module_level=True)


@pytest.fixture(scope="session")
def np():
    return require("numpy")


@pytest.fixture(scope="session")
def dpnp():
    module = require("dpnp")
    dpctl = require("dpctl")
    if not dpctl.get_devices():
        message = "dpctl sees no SYCL device"
        if peers_required():
            pytest.fail(message)
        pytest.skip(message, allow_module_level=True)
    return module


def error_ids(findings):
    return sorted({item.rule_id for item in findings if item.severity == "error"})


def judged_ids(findings):
    """Rule ids of errors and warnings: what a failing vector may break."""
    return sorted({item.rule_id for item in findings if item.severity in ("error", "warning")})


def package_environment(env=None):
    """This environment with this copy of the package and the tests' own
    modules on PYTHONPATH, and `env` on top."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(__import__("dlpack_usm").__file__)),
         os.path.dirname(os.path.abspath(__file__))])
    environment.update(env or {})
    return environment


def no_width_environment():
    """This environment without COLUMNS: text reports as a file gets them,
    a row per line whatever the terminal that runs the tests."""
    return {name: value for name, value in os.environ.items() if name != "COLUMNS"}


def numpy_declines_with():
    """The exception numpy.from_dlpack declines an unsupported dtype or
    device with: RuntimeError up to numpy 2.4 (the CI machine), BufferError,
    the DLPack Python specification's, from numpy 2.5 (the GPU machine has
    2.5.2). Either is a decline; only the first earns the warning that the
    specification recommends BufferError."""
    import numpy
    major, minor = (int(part) for part in numpy.__version__.split(".")[:2])
    return "BufferError" if (major, minor) >= (2, 5) else "RuntimeError"


def run_package(*arguments, env=None, timeout=600):
    """`python -m dlpack_usm ARGUMENTS` in a child of this interpreter, as a
    user runs it, with this copy of the package and the tests' own modules."""
    import subprocess
    return subprocess.run([sys.executable, "-m", "dlpack_usm", *arguments], capture_output=True,
                          text=True, env=package_environment(env), timeout=timeout)


def processes_carrying(token):
    """The live processes (no zombies) whose environment holds `token`: the
    processes of a run started with the token in its environment, wherever
    they are (a worker's pid inside its PID namespace means nothing out
    here)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if token.encode() not in environ.read():
                    continue
            with open(f"/proc/{entry}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


def gone_within(token, seconds):
    """The processes carrying `token` still alive after up to `seconds`."""
    import time
    deadline = time.monotonic() + seconds
    while processes_carrying(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    return processes_carrying(token)
