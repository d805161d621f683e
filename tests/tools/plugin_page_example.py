"""The plugin page's example as its reader takes it: usm.h and producer.c
copied out of man/dlpack-usm-plugin.7's EXAMPLE section, built with the
page's own command (its `cc ... $(pkg-config --cflags dlpack-usm) ...`
line, run by bash as written, pkg-config pointed at one install of the
tool and nothing else on the include path), then `dlpack-usm check
--producer` as the page gives it. The example must build with no warning
(-Wall -Wextra -Werror added) and its check must pass with no finding of
its own at all: not an error, not a warning, not an info (the runtime's
cases, runtime/..., judge the runtime).

Usage: plugin_page_example.py MAN_PAGE WORK_DIR PKG_CONFIG_DIR DLPACK_USM"""

import json
import os
import re
import subprocess
import sys

EXAMPLE_FILES = ("usm.h", "producer.c")


def troff_text(lines):
    """Lines of a .nf block as the reader copies them from the page."""
    return "".join(line.replace("\\e", "\\").replace("\\-", "-") + "\n" for line in lines)


def example_blocks(page):
    """The blocks of the EXAMPLE section: each .nf ... .fi, in order."""
    section = page.split("\n.SH EXAMPLE\n", 1)[1].split("\n.SH ", 1)[0]
    blocks, current = [], None
    for line in section.splitlines():
        if line == ".nf":
            current = []
        elif line == ".fi" and current is not None:
            blocks.append([item for item in current if item not in (".ft CW", ".ft")])
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def commands(block):
    """Shell commands of a block: continuation lines joined."""
    return troff_text(block).replace("\\\n", " ").strip().splitlines()


def run(command, work, environment):
    print(f"$ {command}", flush=True)
    return subprocess.run(["bash", "-c", command], cwd=work, env=environment, text=True,
                          capture_output=True, timeout=900)


def main(page_path, work, pkg_config_dir, tool):
    with open(page_path, encoding="utf-8") as page:
        blocks = example_blocks(page.read())
    os.makedirs(work, exist_ok=True)
    for name, block in zip(EXAMPLE_FILES, blocks):
        with open(os.path.join(work, name), "w", encoding="utf-8") as out:
            out.write(troff_text(block))
    build, check = commands(blocks[2])
    environment = dict(os.environ, PKG_CONFIG_PATH=pkg_config_dir,
                       PATH=os.path.dirname(os.path.abspath(tool)) + os.pathsep +
                       os.environ.get("PATH", ""))
    environment.pop("CPATH", None)
    environment.pop("C_INCLUDE_PATH", None)
    built = run(re.sub(r"^cc ", "cc -Wall -Wextra -Werror ", build), work, environment)
    if built.returncode != 0:
        sys.exit(f"the page's build command failed:\n{built.stdout}{built.stderr}")
    checked = run(check, work, environment)
    report_path = os.path.join(work, "out", "report.json")
    if checked.returncode != 0 or not os.path.exists(report_path):
        sys.exit(f"the page's check failed (exit {checked.returncode}):\n{checked.stdout}"
                 f"{checked.stderr}")
    with open(report_path, encoding="utf-8") as report:
        results = json.load(report)["results"]
    # The runtime's own cases (source "runtime": PoCL 5.0's owner answer on
    # the GPU machine) judge the runtime, not the library: not its findings.
    found = [(case["id"], item["rule_id"]) for case in results
             if case["source"] != "runtime" for item in case.get("findings") or []]
    if found or not results:
        sys.exit(f"the page's producer has {len(found)} findings in {len(results)} cases, "
                 f"first {found[:5]}:\n{checked.stdout[-2000:]}")
    print(f"plugin_page_example: built with the page's command; {len(results)} cases, "
          "no finding")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
