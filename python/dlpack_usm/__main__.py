"""python3 -m dlpack_usm check EXPR | capture EXPR -o FILE | consume EXPR |
profile MODULE | rules: the bridge for people who want no code. EXPR is a
Python expression; any module it names (numpy, dpnp, torch, ...) is
imported on first use. Exit codes are
dlpack-usm's: 0 ok, 1 findings (errors; --strict: warnings too), 2 usage,
3 environment, 4 internal."""

import argparse
import json
import os
import sys

from . import capture, inspect
from ._bridge import interrupts, library
from ._bridge.child import TIMEOUT_S
from ._bridge.errors import BridgeError, NotApplicable
from ._bridge.tensor_json import flags_value
from ._envelope import CHECK_SCHEMA, RULES_SCHEMA, envelope
from ._expression import evaluate
from .consumer import check_consumer
from .consumer._lazy import LazyConsumer, consumer_of
from .profile._command import add_parser as add_profile_parser
from .consumer._status import interval_from_environment
from .producer import DEFAULT_MAX_VERSION, _contained, _stream_race
from .rules import catalog

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


def _whole_number(text):
    try:
        return int(text)
    except ValueError:
        return -1


def failure_count(text):
    """--max-failures: a count of cases, 0 for no limit."""
    count = _whole_number(text)
    if count < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of cases: give 1 or more, "
                                         "or 0 for no limit")
    return count


def positive_count(text):
    """--stream-attempts: a whole number from 0 (no stream checks) to 100000."""
    count = _whole_number(text)
    if not 0 <= count <= 100000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of attempts from 0 to 100000")
    return count


# The range of the command line's --timeout (dlpack-usm-check(1)).
SHORTEST_TIMEOUT_S, LONGEST_TIMEOUT_S = 0.01, 86400


def parse_seconds(text):
    """--timeout: seconds from 10 ms to a day, refused in words otherwise
    (NaN, infinities and negative or zero times would time out every call)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not SHORTEST_TIMEOUT_S <= seconds <= LONGEST_TIMEOUT_S:  # NaN fails both
        raise argparse.ArgumentTypeError(
            f"{text} is not between {SHORTEST_TIMEOUT_S:g} and {LONGEST_TIMEOUT_S:g} seconds")
    return seconds


def report_bridge_error(error):
    print(f"dlpack-usm: error: {error.message}", file=sys.stderr)
    if error.hint:
        print(f"dlpack-usm: hint: {error.hint}", file=sys.stderr)
    return error.exit_code


def counts(findings):
    return {severity: sum(1 for item in findings if item.severity == severity)
            for severity in ("error", "warning", "info")}


def plural(count, word):
    return f"{count} {word}{'' if count == 1 else 's'}"


def print_text(origin, findings, strict):
    tally = counts(findings)
    summary = (f"{plural(tally['error'], 'error')}, {plural(tally['warning'], 'warning')}, "
               f"{plural(tally['info'], 'info')}")
    if not findings:
        print(f"{origin}  no findings")
    else:
        print(f"{origin}  {summary}")
        rows = [("SEVERITY", "RULE", "FIELD", "MESSAGE")] + \
            [(item.severity, item.rule_id, item.field, item.message) for item in findings]
        widths = [max(len(row[column]) for row in rows) for column in range(3)]
        for row in rows:
            print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) +
                  "  " + row[3])
        # Where to read each rule, as capsule check says it.
        for rule_id in sorted({item.rule_id for item in findings}):
            print(f"  see: dlpack-usm rules {rule_id}")
    print(f"checked 1 object: {summary}" + (" (strict: warnings fail)" if strict else ""))


def command_check(arguments):
    consumer = None if arguments.no_consumer else "auto"
    # The producer's code runs in child processes; a stop signal ends the
    # check with what it found.
    with interrupts.stopping_on_signals():
        try:
            report = _contained.check_contained(arguments.expr, arguments.max_version,
                                                consumer, arguments.timeout,
                                                arguments.stream_attempts)
        except NotApplicable as reason:
            if arguments.json:
                print(json.dumps({**envelope(CHECK_SCHEMA), "expr": arguments.expr,
                                  "not_applicable": reason.message}, indent=2))
            else:
                print(f"{arguments.expr}  not applicable: {reason.message}")
            return OK
        print_check(arguments, report)
    if report.interrupted:
        return interrupts.exit_code(report.interrupted)
    tally = counts(report.findings)
    failed = tally["error"] > 0 or (arguments.strict and tally["warning"] > 0)
    return FINDINGS if failed else OK


def capsule_for_machines(capsule):
    """The capsule-file form of the tensor with its flags as a number (the
    form people read names them), or None where there is no tensor."""
    if capsule is None or "flags" not in capsule:
        return capsule
    return {**capsule, "flags": flags_value(capsule)}


def print_check(arguments, report):
    """The check's report, as text or as one JSON document."""
    base = report.base or {}
    if arguments.json:
        print(json.dumps({
            **envelope(CHECK_SCHEMA),
            "expr": arguments.expr,
            "capsule_name": base.get("capsule_name"),
            "capsule": capsule_for_machines(base.get("capsule")),
            "reader_notes": base.get("reader_notes", []),
            "notes": report.notes,
            "interrupted": report.interrupted,
            "strict": arguments.strict,
            "counts": counts(report.findings),
            "findings": [item.to_json() for item in report.findings],
        }, indent=2), flush=True)
        return
    print_text(arguments.expr, report.findings, arguments.strict)
    for note in report.notes:
        print(note)
    sys.stdout.flush()


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


def command_consume(arguments):
    if arguments.report and arguments.junit and \
            os.path.realpath(arguments.report) == os.path.realpath(arguments.junit):
        raise BridgeError(f"--report and --junit name the same file {arguments.report}",
                          "give each output a file of its own", exit_code=2)
    # EXPR is evaluated (its library imported, the versions of what it
    # imported read) once, by the zygote of the case runners.
    consumer = LazyConsumer(lambda: consumer_of(arguments.expr))

    def progress(result):
        if arguments.detail == "every_case":
            print(f"{result['id']}: {result['outcome']}", file=sys.stderr)

    # In a log (stderr not a terminal) a status line now and then shows a
    # run that goes on, also while a case hangs.
    interval_s = interval_from_environment()
    if sys.stderr.isatty():
        interval_s = 0

    # A stop signal ends the run early, with its report: the signals after
    # it wait until the report is written.
    with interrupts.stopping_on_signals():
        found = check_consumer(
            consumer, devices=arguments.device or None, require=arguments.require or (),
            cells=arguments.cell or None, strict=arguments.strict,
            timeout_s=arguments.timeout, name=arguments.expr, progress=progress,
            command_line=["python3", "-m", "dlpack_usm"] + list(arguments.argv),
            max_failures=arguments.max_failures, status_interval_s=interval_s)
        print(found.text(arguments.detail), flush=True)
        # Written as the command line writes its reports (atomically over a
        # regular file, in place on a device or FIFO), by the same code.
        written = []
        if arguments.report:
            library.write_output(arguments.report,
                                 json.dumps(found.to_json(), indent=2) + "\n", "--report")
            written.append(arguments.report)
        if arguments.junit:
            library.write_output(arguments.junit, found.junit(), "--junit")
            written.append(arguments.junit)
        # As check closes: every file written, named once they are.
        if written and arguments.detail != "quiet":
            print(f"wrote: {', '.join(written)}", flush=True)
    if found.interrupted:
        return interrupts.exit_code(found.interrupted)
    return OK if found.passed else FINDINGS


def command_rules(arguments):
    if arguments.json:
        # The shape of `dlpack-usm rules --json` (conformance/schema/rules.schema.json),
        # with "rule_id", the key every JSON output of the tool uses for a rule id.
        rules = [{"rule_id": rule.id, **{key: value for key, value in rule.__dict__.items()
                                         if key != "id"}} for rule in catalog()]
        print(json.dumps({**envelope(RULES_SCHEMA), "rules": rules}, indent=2))
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

    check = commands.add_parser(
        "check", help="tensor rules and Python protocol rules on the object EXPR evaluates to")
    check.add_argument("expr", metavar="EXPR",
                       help="Python expression, e.g. \"numpy.arange(6).reshape(2, 3)\"")
    check.add_argument("--json", action="store_true", help="print one JSON document")
    check.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    check.add_argument("--max-version", type=parse_version, default=DEFAULT_MAX_VERSION,
                       metavar="MAJOR.MINOR", help="max_version passed to __dlpack__ "
                       "(default 1.3)")
    check.add_argument("--no-consumer", action="store_true",
                       help="do not hand a capsule to numpy/dpnp to check consumed-capsule "
                            "renaming")
    check.add_argument("--timeout", type=parse_seconds, default=TIMEOUT_S,
                       metavar="SECONDS", help="a call into the producer that takes longer is a "
                       f"hang (default {TIMEOUT_S:g})")
    check.add_argument("--stream-attempts", type=positive_count,
                       default=_stream_race.DEFAULT_ATTEMPTS, metavar="N",
                       help="late arrays each stream value of a CUDA or SYCL array is checked "
                            f"with (default {_stream_race.DEFAULT_ATTEMPTS}; 0: no stream "
                            "checks)")
    check.set_defaults(run=command_check)

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

    consume = commands.add_parser(
        "consume", help="offer the consumer matrix to the consumer EXPR (e.g. numpy.from_dlpack)")
    consume.add_argument("expr", metavar="EXPR",
                         help="Python expression giving the consumer, e.g. numpy.from_dlpack")
    consume.add_argument("--report", metavar="FILE", help="write the JSON report with the profile")
    consume.add_argument("--junit", metavar="FILE", help="write JUnit XML, one case per cell")
    consume.add_argument("--require", nargs="+", metavar="FEATURE", default=[],
                         help="a clean decline of a case with FEATURE fails (e.g. legacy, "
                              "size0, device-usm)")
    consume.add_argument("--device", action="append", metavar="NAME",
                         help="offer on this device only: cpu (kDLCPU host memory), a USM "
                              "root device such as opencl:cpu:0, or a CUDA device such as "
                              "cuda:0 (its stream case); repeatable")
    consume.add_argument("--cell", action="append", metavar="NAME",
                         help="offer only this cell of the matrix (c-order, dtype-bool, "
                              "ndim-40, ...); repeatable")
    consume.add_argument("--strict", action="store_true",
                         help="fail (exit 1) on warnings too, as check --strict does")
    consume.add_argument("--timeout", type=parse_seconds, default=TIMEOUT_S, metavar="SECONDS",
                         help=f"a case that takes longer is a hang (default {TIMEOUT_S:g})")
    consume.add_argument("--max-failures", type=failure_count, default=0, metavar="N",
                         help="stop after N failing cases; the rest are not run (default 0: "
                              "never)")
    detail = consume.add_mutually_exclusive_group()
    detail.add_argument("-v", "--verbose", dest="detail", action="store_const",
                        const="every_case", default="grouped",
                        help="list every case that is not ok, as check -v does, and print each "
                             "case's outcome on stderr as it ends")
    detail.add_argument("-q", "--quiet", dest="detail", action="store_const", const="quiet",
                        help="print the gate line alone, as check -q does")
    consume.set_defaults(run=command_consume)

    add_profile_parser(commands)

    rules = commands.add_parser("rules", help="the Python-level rule catalog")
    rules.add_argument("--json", action="store_true", help="print one JSON document")
    rules.set_defaults(run=command_rules)
    return top


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        arguments = parser().parse_args(argv)
    except SystemExit as exit_request:
        return USAGE if exit_request.code not in (0, None) else OK
    except BridgeError as error:  # the bridge could not be loaded to read an option
        return report_bridge_error(error)
    arguments.argv = argv
    try:
        return arguments.run(arguments)
    except interrupts.Interrupted as stop:
        # Before any case ran (the matrix, the consumer's import): no report.
        print(f"dlpack-usm: error: {stop}, before there was anything to report",
              file=sys.stderr)
        return interrupts.exit_code(stop.name)
    except BridgeError as error:
        return report_bridge_error(error)
    except Exception as error:  # the last line of defence: a report, never a bare traceback
        print(f"dlpack-usm: error: internal error: {type(error).__name__}: {error}",
              file=sys.stderr)
        print("dlpack-usm: hint: this is a bug of dlpack_usm; please report it", file=sys.stderr)
        return INTERNAL


if __name__ == "__main__":
    sys.exit(main())
