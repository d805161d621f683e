"""`python -m dlpack_usm check | consume | profile | handoff` are thin front-
ends over the tool's one runner: the first three become `dlpack-usm check`
with the library under test named (--python-producer EXPR, --python-consumer
EXPR, --python-library MODULE) and run by this interpreter (--python), every
other option passed on as given. So every gate option of `check` works here
with the same name and meaning (--baseline, --flakes, --shard, --label,
--report, --junit, --failures, --format github, --summary-md, --strict,
--max-failures, --color, -v/-q, ...), the reports are check reports, and the
exit code is check's; handoff becomes `dlpack-usm handoff`, check's gate
with a story. The process becomes `dlpack-usm` (exec): a signal reaches the
run itself, and nothing of the package runs around it."""

import os
import shutil
import sys
import sysconfig

from ._bridge.errors import BridgeError

# What each front-end names, and the options that are its own words for
# one of check's (kept: the front-ends' earlier spellings).
COMMANDS = {
    "check": ("producer", "EXPR", "an object with __dlpack__, e.g. \"numpy.ones(4)\"",
              {"--json": ["--report", "-"], "--no-consumer": ["--no-consumer-probe"]}),
    "consume": ("consumer", "EXPR", "a callable consumer, e.g. numpy.from_dlpack", {}),
    "profile": ("library", "MODULE", "an array API namespace, e.g. numpy, jax.numpy",
                {"--producer-only": ["--side", "producer"],
                 "--consumer-only": ["--side", "consumer"]}),
}


def binary():
    """The packaged `dlpack-usm`: DLPACK_USM_BINARY, else the one CMake wrote
    beside this copy of the package (_location), else the one a pip install
    put into this environment's scripts, else PATH's."""
    named = os.environ.get("DLPACK_USM_BINARY")
    if named:
        return named
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _location
        found = getattr(_location, "BINARY", "")
        if found:
            return os.path.normpath(os.path.join(here, found)) if _location.RELATIVE else found
    except ImportError:
        pass
    scripts = os.path.join(sysconfig.get_path("scripts"), "dlpack-usm")
    if os.access(scripts, os.X_OK):
        return scripts
    found = shutil.which("dlpack-usm")
    if found is None:
        raise BridgeError("cannot find the dlpack-usm executable this package runs",
                          "build it (cmake --build build --target dlpack-usm), pip install the "
                          "package, or name it in DLPACK_USM_BINARY", exit_code=3)
    return found


def usage(command):
    if command == "handoff":
        return ("usage: python3 -m dlpack_usm handoff [OPTION...] PRODUCER CONSUMER\n\n"
                "PRODUCER is an array EXPR (\"dpnp.ones(4)\") or a MODULE (dpnp, torch); "
                "CONSUMER a callable EXPR (torch.from_dlpack) or a MODULE (its from_dlpack). "
                "The options are those of `dlpack-usm handoff` (dlpack-usm handoff --help, man "
                f"dlpack-usm-handoff); this runs\n"
                f"  dlpack-usm handoff --python {sys.executable} [OPTION...] PRODUCER CONSUMER\n")
    role, name, what, aliases = COMMANDS[command]
    spelled = "".join(f", {alias} (check's {' '.join(words)})" for alias, words in aliases.items())
    return (f"usage: python3 -m dlpack_usm {command} [OPTION...] {name}\n\n"
            f"{name} is {what}. The options are those of `dlpack-usm check` "
            f"(dlpack-usm check --help, man dlpack-usm-check){spelled}; this runs\n"
            f"  dlpack-usm check --python-{role} {name} --python {sys.executable} [OPTION...]\n")


def check_argv(command, arguments):
    """dlpack-usm's argv for `python -m dlpack_usm COMMAND ARGUMENTS`: check
    takes the EXPR or MODULE among the options, where the user wrote it, as
    the positional argument of --python-role."""
    role, _, _, aliases = COMMANDS[command]
    rest = []
    for argument in arguments:
        rest += aliases.get(argument, [argument])
    return [binary(), "check", "--python-role", role, "--python", sys.executable, *rest]


def run(command, arguments):
    """Becomes `dlpack-usm check ...`; returns only to print help."""
    if arguments[:1] in (["-h"], ["--help"]):
        print(usage(command), end="")
        return 0
    if command == "handoff":
        argv = [binary(), "handoff", "--python", sys.executable, *arguments]
    else:
        argv = check_argv(command, arguments)
    environment = dict(os.environ)
    # The workers import this very package, whatever their PYTHONPATH says.
    environment["DLPACK_USM_PYTHON_PACKAGE"] = os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(argv[0], argv, environment)
    except OSError as error:
        raise BridgeError(f"cannot run {argv[0]}: {error.strerror}",
                          "name the dlpack-usm executable in DLPACK_USM_BINARY",
                          exit_code=3) from None
