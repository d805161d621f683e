"""`python3 -m dlpack_usm profile MODULE`: the command's options and its one
callback (the work is profile_library's)."""

import sys

from .._bridge import interrupts, library
from .._bridge.child import TIMEOUT_S
from . import Selection, profile_library
from ._report import report_text


def add_parser(commands):
    profile = commands.add_parser(
        "profile", help="a library's DLPack profile, both directions: what its __dlpack__ "
                        "emits and what its from_dlpack accepts")
    profile.add_argument("module", metavar="MODULE",
                         help="the library's array API namespace, e.g. numpy, jax.numpy, dpnp")
    profile.add_argument("--report", metavar="FILE", help="write the profile report (JSON)")
    only = profile.add_mutually_exclusive_group()
    only.add_argument("--producer-only", action="store_true",
                      help="profile __dlpack__ only (the producer direction)")
    only.add_argument("--consumer-only", action="store_true",
                      help="profile from_dlpack only (the consumer direction)")
    profile.add_argument("--device", action="append", metavar="NAME",
                         help="profile on this device only: cpu, a USM root device such as "
                              "opencl:cpu:0, or another device of the library (cuda:0); "
                              "repeatable")
    profile.add_argument("--library-device", action="append", metavar="TEXT",
                         help="make the producer's arrays on this device of the library, "
                              "passed as device=TEXT (torch: cuda:0), instead of those "
                              "__array_namespace_info__().devices() lists; repeatable")
    profile.add_argument("--cell", action="append", metavar="NAME",
                         help="profile only this cell (c-order, dtype-bool, read-only, ...; "
                              "a consumer matrix cell for the consumer direction); repeatable")
    profile.add_argument("--timeout", type=float, default=TIMEOUT_S, metavar="SECONDS",
                         help=f"a case that takes longer is a hang (default {TIMEOUT_S:g})")
    profile.add_argument("--label", metavar="TEXT",
                         help="what the report calls this machine (machine.label), e.g. ci")
    profile.add_argument("-v", "--verbose", action="store_true",
                         help="print each case's outcome on stderr as it ends")
    profile.set_defaults(run=command_profile)


def command_profile(arguments):
    def progress(result):
        if arguments.verbose:
            print(f"{result['id']}: {result['outcome'] or result['status']}", file=sys.stderr)

    selection = Selection(producer=not arguments.consumer_only,
                          consumer=not arguments.producer_only,
                          devices=arguments.device, cells=arguments.cell,
                          library_devices=arguments.library_device)
    # A stop signal ends the run early, with its report.
    with interrupts.stopping_on_signals():
        found = profile_library(arguments.module, selection, arguments.timeout, arguments.label,
                                ["python3", "-m", "dlpack_usm"] + list(arguments.argv), progress)
        print(found.text(), flush=True)
        if arguments.report:
            library.write_output(arguments.report, report_text(found.document), "--report")
    if found.interrupted:
        return interrupts.exit_code(found.interrupted)
    return 0 if found.passed else 1
