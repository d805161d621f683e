"""python3 -m dlpack_usm check EXPR | consume EXPR | profile MODULE | handoff
PRODUCER CONSUMER | inspect EXPR | capture EXPR -o FILE | device-ids |
rules: the tool for people who want no code. check, consume, profile and
handoff run `dlpack-usm check` (or handoff) with the library under test
(_frontend); inspect, capture, device-ids and rules read tensors or the
catalog in this process. EXPR is a Python expression; any module it names
(numpy, dpnp, torch, ...) is imported on first use. Exit codes are dlpack-
usm's: 0 ok, 1 findings (errors; --strict: warnings too), 2 usage, 3
environment, 4 internal."""

import argparse
import json
import sys

from . import _frontend, capture, device_ids, inspect
from ._bridge import library
from ._bridge.errors import BridgeError
from ._expression import evaluate
from .producer import DEFAULT_MAX_VERSION
from .rules import catalog

# The commands that run `dlpack-usm check` (_frontend), and what each tests.
FRONT_ENDS = {
    "check": "check the object EXPR evaluates to: its capsule under the tensor rules, then the "
             "Python protocol (dlpack-usm check --python-producer EXPR)",
    "consume": "offer the consumer matrix to the consumer EXPR, e.g. numpy.from_dlpack "
               "(dlpack-usm check --python-consumer EXPR)",
    "profile": "a library's DLPack profile, both directions (dlpack-usm check "
               "--python-library MODULE)",
    "handoff": "hand the tensor of PRODUCER to CONSUMER: what each did, whose fault a failure "
               "is, which remedy works (dlpack-usm handoff PRODUCER CONSUMER)",
}

OK, FINDINGS, USAGE, ENVIRONMENT, INTERNAL = 0, 1, 2, 3, 4


def parse_version(text):
    """--max-version, read by the core's one reader of versions (the C++
    commands' own), so that both accept and refuse the same text."""
    try:
        return library.max_version(text, "version")
    except BridgeError as error:
        if error.exit_code != USAGE:
            raise
        raise argparse.ArgumentTypeError(error.message) from None


def report_bridge_error(error):
    print(f"dlpack-usm: error: {error.message}", file=sys.stderr)
    if error.hint:
        print(f"dlpack-usm: hint: {error.hint}", file=sys.stderr)
    return error.exit_code


def command_inspect(arguments):
    """The tensor EXPR exports, field by field, as `dlpack-usm capsule dump`
    shows a capsule file: information, never a verdict (exit 0)."""
    obj = evaluate(arguments.expr)
    found = inspect(obj, arguments.max_version, origin=arguments.expr)
    if arguments.json:
        print(json.dumps({"expr": arguments.expr, "capsule_name": found.capsule_name,
                          "tensor": found.dump, "reader_notes": found.reader_notes,
                          "notes": found.notes}, indent=2))
        return OK
    print(found.dump_text, end="" if found.dump_text.endswith("\n") else "\n")
    print(f"  capsule      {found.capsule_name}")
    for note in found.reader_notes + found.notes:
        print(f"note: {note}")
    return OK


def command_capture(arguments):
    obj = evaluate(arguments.expr)
    result = capture(obj, arguments.output, arguments.max_version, origin=arguments.expr)
    print(f"{arguments.output}: {result.capsule_name} capsule of {arguments.expr} written; "
          f"check it with `dlpack-usm capsule check {arguments.output}`")
    return OK


def command_rules(arguments):
    if arguments.json:
        # `dlpack-usm rules --json`, as the core writes it, of the Python family.
        document = library.rules_catalog()
        document["rules"] = [rule for rule in document["rules"] if rule["family"] == "python"]
        print(json.dumps(document, indent=2))
        return OK
    for rule in catalog():
        print(f"{rule.id}  {rule.severity}  since {rule.since}  {rule.title}")
        print(f"    {rule.reference} ({rule.normative}): {rule.quote}")
    return OK


class _ToolVersion(argparse.Action):
    """--version: asks the library only when given, so that --help works
    where the library cannot be loaded."""

    def __init__(self, option_strings, dest, **keywords):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **keywords)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"dlpack_usm {library.tool_version()} (libdlpack_usm, bridge ABI "
              f"{library.ABI_VERSION})")
        parser.exit()


def parser():
    top = argparse.ArgumentParser(
        prog="python3 -m dlpack_usm",
        description="Check DLPack tensors made in Python with the dlpack-usm rule catalog.")
    top.add_argument("--version", action=_ToolVersion,
                     help="print the version of the tool and of its library, then exit")
    commands = top.add_subparsers(dest="command", required=True)
    for name, help_text in FRONT_ENDS.items():
        # The front-ends' options are `dlpack-usm check`'s: main() hands them
        # on before argparse sees them; these entries are for --help.
        commands.add_parser(name, help=help_text, add_help=False)

    inspect_command = commands.add_parser(
        "inspect", help="every field of the tensor EXPR exports, as `capsule dump` shows it")
    inspect_command.add_argument("expr", metavar="EXPR", help="Python expression")
    inspect_command.add_argument("--json", action="store_true", help="print one JSON document")
    inspect_command.add_argument("--max-version", type=parse_version,
                                 default=DEFAULT_MAX_VERSION, metavar="MAJOR.MINOR",
                                 help="max_version passed to __dlpack__ (default 1.3)")
    inspect_command.set_defaults(run=command_inspect)

    capture_command = commands.add_parser(
        "capture", help="write the tensor EXPR exports as a capsule file")
    capture_command.add_argument("expr", metavar="EXPR", help="Python expression")
    capture_command.add_argument("-o", "--output", required=True, metavar="FILE",
                                 help="capsule file to write (JSON)")
    capture_command.add_argument("--max-version", type=parse_version,
                                 default=DEFAULT_MAX_VERSION, metavar="MAJOR.MINOR",
                                 help="max_version passed to __dlpack__ (default 1.3)")
    capture_command.set_defaults(run=command_capture)

    ids = commands.add_parser(
        "device-ids", help="one USM allocation per root device exported by every kDLOneAPI "
                           "producer installed, each device id beside SYCL's answer")
    ids.add_argument("--producer", action="append", default=[], metavar="EXPR",
                     help="also a producer of your own: EXPR evaluates to a callable that "
                          "takes the dpnp array over the allocation and returns an object "
                          "with __dlpack__ (repeatable)")
    ids.add_argument("--json", action="store_true", help="print one JSON document")
    ids.set_defaults(run=device_ids.command)

    rules = commands.add_parser("rules", help="the Python-level rule catalog")
    rules.add_argument("--json", action="store_true", help="print one JSON document")
    rules.set_defaults(run=command_rules)
    return top


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in FRONT_ENDS:
        try:
            return _frontend.run(argv[0], argv[1:])
        except BridgeError as error:
            return report_bridge_error(error)
    try:
        arguments = parser().parse_args(argv)
    except SystemExit as exit_request:
        return USAGE if exit_request.code not in (0, None) else OK
    except BridgeError as error:  # the bridge could not be loaded to read an option
        return report_bridge_error(error)
    arguments.argv = argv
    try:
        return arguments.run(arguments)
    except BridgeError as error:
        return report_bridge_error(error)
    except Exception as error:  # the last line of defence: a report, never a bare traceback
        print(f"dlpack-usm: error: internal error: {type(error).__name__}: {error}",
              file=sys.stderr)
        print("dlpack-usm: hint: this is a bug of dlpack_usm; please report it", file=sys.stderr)
        return INTERNAL


if __name__ == "__main__":
    sys.exit(main())
