"""`report matrix` keeps its memory bounded by what it writes, not by rows x
columns x the longest string (issue 36): reports generated from one real
report (numpy's consumer on host memory, `python -m dlpack_usm consume`),
made wide two ways, are rendered as text, Markdown and HTML under an
address-space limit of 512 MiB (RLIMIT_AS), and every rendering must end
with exit 0:

  - one library whose name and version are 1 MiB long each (what a hostile
    module may say of itself: the matrix names it on every row);
  - 200 libraries of 500 rows each, one report per library.

Usage: report_matrix_memory_test.py DLPACK_USM PYTHON WORK_DIR"""

import copy
import json
import os
import resource
import subprocess
import sys

LIMIT_BYTES = 512 << 20
LIBRARIES = 200
ROWS = 500


def base_report(tool, python, work):
    """A real report: numpy.from_dlpack on host memory."""
    path = os.path.join(work, "numpy.json")
    environment = dict(os.environ, DLPACK_USM_BINARY=tool)
    done = subprocess.run([python, "-m", "dlpack_usm", "consume", "numpy.from_dlpack", "--device",
                           "cpu", "--report", path], capture_output=True, text=True,
                          env=environment, timeout=600)
    if done.returncode not in (0, 1) or not os.path.exists(path):
        sys.exit(f"consume numpy.from_dlpack failed ({done.returncode}):\n{done.stderr}")
    with open(path, encoding="utf-8") as report:
        return json.load(report)


def long_named(report):
    """The report with its library's name and version 1 MiB long."""
    found = copy.deepcopy(report)
    for plugin in found["plugins"]:
        plugin.update(name="n" * (1 << 20), version="v" * (1 << 20))
    return found


def renamed(report, name, rows=None):
    """The report with its library called `name`, and at most `rows` cases."""
    found = copy.deepcopy(report)
    old = found["plugins"][0]["path"]
    for plugin in found["plugins"]:
        plugin.update(path=name, module=name, name=name)
    cases = [case for case in found["results"] if case.get("library") == old]
    cases = (cases * (1 + (rows or 0) // max(len(cases), 1)))[:rows] if rows else cases
    cases = [copy.deepcopy(case) for case in cases]
    for index, case in enumerate(cases):
        # What the matrix reads of a case, no more: the files stay small.
        case.update(evidence=None, repro="", emitted="")
        case["library"] = name
        case["id"] = f"{name}/{case['id'].split('/', 1)[1]}#{index}" if rows else \
            f"{name}/{case['id'].split('/', 1)[1]}"
    found["results"] = cases
    return found


def write(path, document):
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out)
    return path


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def render(tool, inputs, form, work):
    output = os.path.join(work, f"matrix.{form}")
    done = subprocess.run([tool, "report", "matrix", *inputs, "--format", form, "--output",
                           output], capture_output=True, text=True, preexec_fn=limited,
                          timeout=600)
    if done.returncode != 0:
        sys.exit(f"report matrix --format {form} of {len(inputs)} report(s) failed under "
                 f"{LIMIT_BYTES >> 20} MiB ({done.returncode}):\n{done.stderr[-2000:]}")
    return os.path.getsize(output)


def main(tool, python, work):
    os.makedirs(work, exist_ok=True)
    report = base_report(tool, python, work)
    long_name = [write(os.path.join(work, "long-name.json"), long_named(report))]
    many = [write(os.path.join(work, f"library-{i:03d}.json"),
                  renamed(report, f"library{i:03d}", ROWS)) for i in range(LIBRARIES)]
    for label, inputs in (("a 1 MiB library name", long_name),
                          (f"{LIBRARIES} libraries x {ROWS} rows", many)):
        size = sum(os.path.getsize(path) for path in inputs)
        for form in ("text", "md", "html"):
            written = render(tool, inputs, form, work)
            print(f"report_matrix_memory: {label} ({size >> 10} KiB of reports): {form}, "
                  f"{written >> 10} KiB written under {LIMIT_BYTES >> 20} MiB")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
