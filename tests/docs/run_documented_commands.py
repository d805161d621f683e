#!/usr/bin/env python3
"""Every command the documentation gives runs as written (ctest:
documented_commands): each line of README.md's ```sh blocks and of the man
pages' EXAMPLES, in a scratch folder that looks like a fresh clone after
the README's first command (every entry of the source tree linked, `build`
the build tree), one command after the other as a reader types them.

The reader's machine is stood in for where a page names what a reader
brings: `dlpack-usm` and `python3 -m dlpack_usm` are the built ones (an
install), ci/*.txt baselines are empty files, ./libmyproducer.so,
./libmyconsumer.so and ./libmylib.so are the fixture plugins, and
$GITHUB_STEP_SUMMARY is a file, as on a runner.

On a machine the README's first command has not prepared (no
scripts/setup.sh venv with its peers: the GPU machine) the test is skipped
(77), saying so; where the CI requires the set-up (DLPACK_USM_REQUIRE_USM or
DLPACK_USM_REQUIRE_PEERS) that fails instead.

A command runs when it exits 0, or 1 where it is the tool's (a verdict:
findings); 2 (usage), 3 (environment), 4 (internal), a signal or a hang is
a broken page. A block or line the page marks is skipped, with the reason
the mark gives: in README.md an HTML comment before the block,
<!-- docs-test: skip: REASON -->, in a man page a comment line before the
command, .\\" docs-test: skip: REASON.

Usage: run_documented_commands.py SOURCE_DIR BUILD_DIR PYTHON WORK_DIR"""

import os
import re
import shutil
import subprocess
import sys
import time

SKIP = re.compile(r"docs-test: skip: (?P<reason>.*?)\s*(?:-->)?$")
TOOL_WORDS = ("dlpack-usm", "./build/dlpack-usm", "python3", "/opt/dlpack-usm/venv/bin/python")
TIMEOUT = 600


def readme_commands(text):
    """(command, skip reason or None) of README.md's sh blocks."""
    found, block, reason, previous = [], None, None, ""
    for line in text.splitlines():
        if block is None and line == "```sh":
            match = SKIP.search(previous)
            block, reason = [], match.group("reason") if match else None
        elif block is not None and line.startswith("```"):
            found += [(command, reason) for command in join_lines(block)]
            block = None
        elif block is not None:
            block.append(line)
        previous = line
    return found


def man_commands(text):
    """(command, skip reason or None) of a man page's EXAMPLES section."""
    if "\n.SH EXAMPLES\n" not in text:
        return []
    section = text.split("\n.SH EXAMPLES\n", 1)[1].split("\n.SH ", 1)[0]
    found = []
    for block in re.findall(r"(?ms)^\.nf\n(.*?)^\.fi$", section):
        reason, lines = None, []
        for line in block.splitlines():
            match = SKIP.search(line) if line.startswith('.\\"') else None
            if match:
                reason = match.group("reason")
            elif not line.startswith("."):
                lines.append((line.replace("\\e", "\\").replace("\\-", "-"), reason))
                reason = None if not line.endswith(("\\e", "|")) else reason
        found += marked_commands(lines)
    return found


def marked_commands(lines):
    """Continuation lines joined, each command with the mark of its first line."""
    found, parts, reason = [], [], None
    for line, mark in lines:
        if not parts:
            reason = mark
        parts.append(line)
        if not line.endswith(("\\", "|")):
            found.append((join_lines(parts)[0], reason))
            parts = []
    return found


def join_lines(lines):
    """Commands of a block: continuations (a trailing \\ or |) joined,
    comment lines dropped."""
    commands, current = [], ""
    for line in lines:
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
        elif line.endswith("|"):
            current += line + " "
        else:
            commands.append((current + line).strip())
            current = ""
    return commands


def is_tools(command):
    words = [word for word in command.split() if "=" not in word.split("/")[0]]
    return bool(words) and words[0] in TOOL_WORDS


def scratch(source, build, python, work):
    """A fresh-clone look-alike in WORK/clone, and the PATH that makes the
    built tool the installed one."""
    shutil.rmtree(work, ignore_errors=True)
    clone, bin_dir = os.path.join(work, "clone"), os.path.join(work, "bin")
    os.makedirs(os.path.join(clone, "ci"))
    os.makedirs(bin_dir)
    for entry in os.listdir(source):
        if entry not in (".git", "build") and not entry.startswith("build"):
            os.symlink(os.path.join(source, entry), os.path.join(clone, entry))
    os.symlink(build, os.path.join(clone, "build"))
    for name in ("known-failures.txt", "known.txt", "numpy-known.txt", "dpnp-known.txt"):
        open(os.path.join(clone, "ci", name), "w").close()
    plugins = os.path.join(build, "tests", "fixture-plugins")
    for stand_in, fixture in (("libmyproducer.so", "libfixture_producer.so"),
                              ("libmyconsumer.so", "libfixture_consumer.so"),
                              ("libmylib.so", "libfixture_exchange_api.so")):
        os.symlink(os.path.join(plugins, fixture), os.path.join(clone, stand_in))
    os.symlink(os.path.join(build, "dlpack-usm"), os.path.join(bin_dir, "dlpack-usm"))
    with open(os.path.join(bin_dir, "python3"), "w") as shim:
        shim.write(f'#!/bin/sh\nPYTHONPATH="{build}/python" exec "{python}" "$@"\n')
    os.chmod(os.path.join(bin_dir, "python3"), 0o755)
    return clone, bin_dir


def run_all(commands, clone, bin_dir, work):
    environment = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
                       GITHUB_STEP_SUMMARY=os.path.join(work, "step-summary.md"), COLUMNS="80")
    for name in ("GITHUB_ACTIONS", "PYTHONPATH", "DLPACK_USM_BINARY"):
        environment.pop(name, None)
    broken = []
    for where, command, reason in commands:
        if reason:
            print(f"skip  {where}: {command}\n      ({reason})", flush=True)
            continue
        started = time.monotonic()
        try:
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=clone,
                                  env=environment, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=TIMEOUT)
            code = done.returncode
        except subprocess.TimeoutExpired as expired:
            code, done = "hang", expired
        seconds = time.monotonic() - started
        allowed = (0, 1) if is_tools(command) else (0,)
        verdict = "ok" if code in allowed else "BROKEN"
        print(f"{verdict:<5} {where}: {command}\n      exit {code}, {seconds:.1f} s", flush=True)
        if verdict == "BROKEN":
            tail = ((done.stdout or "") + (done.stderr or ""))[-1500:]
            broken.append(f"{where}: {command}\n  exit {code}:\n{tail}")
    return broken


def setup_missing():
    """Why the machine is not one the README's first command prepared, or
    None: the pages name scripts/setup.sh's venv and its peers (dpnp)."""
    venv_python = "/opt/dlpack-usm/venv/bin/python"
    if not os.path.exists(venv_python):
        return f"{venv_python} is missing: scripts/setup.sh has not run here"
    probe = subprocess.run([venv_python, "-c", "import dpnp, numpy"], capture_output=True)
    if probe.returncode != 0:
        return f"{venv_python} cannot import dpnp and numpy, which scripts/setup.sh installs"
    return None


def main(source, build, python, work):
    missing = setup_missing()
    if missing:
        required = os.environ.get("DLPACK_USM_REQUIRE_USM") == "1" or \
            os.environ.get("DLPACK_USM_REQUIRE_PEERS") == "1"
        print(f"documented_commands: {missing}; the documented commands run after the "
              "README's first command", file=sys.stderr)
        return 1 if required else 77
    commands = []
    with open(os.path.join(source, "README.md"), encoding="utf-8") as readme:
        commands += [("README.md", command, reason)
                     for command, reason in readme_commands(readme.read())]
    man = os.path.join(source, "man")
    for page in sorted(os.listdir(man)):
        with open(os.path.join(man, page), encoding="utf-8") as text:
            commands += [(f"man/{page}", command, reason)
                         for command, reason in man_commands(text.read())]
    clone, bin_dir = scratch(source, os.path.abspath(build), python, work)
    broken = run_all(commands, clone, bin_dir, work)
    ran = sum(1 for _, _, reason in commands if not reason)
    print(f"documented_commands: {ran} run, {len(commands) - ran} skipped with their "
          f"reason, {len(broken)} broken")
    if broken:
        print("\n\n".join(broken))
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
