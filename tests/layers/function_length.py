#!/usr/bin/env python3
"""No function in src/ runs over MAX_LINES lines, counted from the line that
names it to the line of its closing brace. A longer one fails here (ctest:
function_length), naming file:line, the function and its length; split it
into helpers whose names say what each part does.

The reader is no C++ parser: it blanks comments, string and character
literals and preprocessor lines, then matches braces, and takes a brace at
namespace or class scope whose head ends in a parameter list (and
qualifiers, a trailing return type or a constructor's initializers) for a
function body. Good enough for src/ as clang-format leaves it; lambdas
count toward the function they are written in.

Usage: function_length.py [SRC]   (SRC defaults to the src/ beside tests/)"""

import os
import re
import sys

MAX_LINES = 60

# Functions that are tables, not logic: one statement per row, and splitting
# them would scatter the table without making any row easier to read. By
# (path under src/, name). Data tables written as variables (kPythonRules,
# kLibraryRules) are no functions and need no entry.
# (file, function) pairs allowed over the limit: option tables, should one
# grow past it. None does today.
ALLOWED = set()

SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".c")
KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype",
            "alignof", "noexcept", "static_assert", "requires"}
QUALIFIERS = re.compile(r"\s*(?:const|volatile|noexcept|override|final|mutable|&&|&)\s*$")
NAME = re.compile(r"((?:[A-Za-z_]\w*\s*(?:<[^<>;{}]*>)?\s*::\s*)*"
                  r"(?:operator\s*\(\s*\)|operator\s*[^\w\s(]+|operator\s+\w+|~?[A-Za-z_]\w*))"
                  r"\s*(?:<[^<>;{}]*>)?\s*$")


def blank(text):
    """`text` with comments, literals and preprocessor lines turned into
    spaces; newlines stay, so offsets and line numbers are the original's."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True

    def wipe(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            end = i
            while end < n and (text[end] != "\n" or text[end - 1] == "\\"):
                end += 1
            wipe(i, end)
            i = end
            continue
        line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            wipe(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            wipe(i, end)
            i = end
        elif (raw := re.match(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(', text[i:i + 24])) and \
                (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', i + raw.end())
            end = n if end < 0 else end + len(raw.group(1)) + 2
            wipe(i + 1, end - 1)
            i = end
        elif c in "\"'":
            # A quote after a digit within a number is a digit separator (1'000).
            if c == "'" and i > 0 and text[i - 1].isalnum() and number_before(text, i):
                i += 1
                continue
            end = i + 1
            while end < n and text[end] != c and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            wipe(i + 1, min(end, n))
            i = end + 1
        else:
            i += 1
    return "".join(out)


def number_before(text, i):
    """Whether the word ending at `i` is a number literal (it starts with a digit)."""
    start = i
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_'."):
        start -= 1
    return text[start].isdigit()


def closing(code, open_at):
    """The offset of the brace that closes the one at `open_at`."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def top_level(head):
    """`head` with everything inside (), [] and {} blanked, so that what is
    left is what stands at its own level."""
    out, depth = [], 0
    for c in head:
        if c in "([{":
            depth += 1
            out.append(c if depth == 1 else " ")
        elif c in ")]}":
            depth -= 1
            out.append(c if depth == 0 else " ")
        else:
            out.append(c if depth == 0 else " ")
    return "".join(out)


def strip_template_prefix(head):
    """`head` without a leading `template <...>`, whose defaults may hold `=`."""
    match = re.match(r"\s*template\s*<", head)
    if not match:
        return head
    depth, k = 1, match.end()
    while k < len(head) and depth:
        depth += {"<": 1, ">": -1}.get(head[k], 0)
        k += 1
    return strip_template_prefix(head[k:])


def classify(head):
    """What a brace at namespace or class scope opens, from the text before
    it: ("scope", None), ("function", (offset of the name, name)),
    ("initializer", None) for a member's brace in a constructor's
    initializers, or ("other", None)."""
    offset = len(head) - len(strip_template_prefix(head))
    body = head[offset:]
    level = top_level(body)
    words = re.findall(r"[A-Za-z_]\w*", level)
    if words[:1] == ["namespace"] or words[:2] == ["inline", "namespace"]:
        return "scope", None
    if words[:1] == ["extern"] and '"' in level:
        return "scope", None
    if re.match(r"\s*(?:typedef\s+)?(?:class|struct|union)\b", level):
        return "scope", None
    if re.match(r"\s*enum\b", level):
        return "other", None
    if re.search(r"(?<![=<>!+\-*/%&|^])=(?!=)", level) and "operator" not in words:
        return "other", None
    # A constructor's initializers: `X(...) noexcept : a_(1), b_{2} {`.
    initializers = re.search(r"\)\s*(?:(?:noexcept\s*(?:\(\s*\))?|const)\s*)*(?<!:):(?!:)",
                             level)
    declarator = level[:initializers.start() + 1] if initializers else level
    if initializers and re.search(r"[\w>]\s*$", level):
        return "initializer", None
    declarator = re.sub(r"\s*->.*$", "", declarator, flags=re.S)
    declarator = re.sub(r"\s*requires\b.*$", "", declarator, flags=re.S)
    while True:
        trimmed = re.sub(r"\s*noexcept\s*\(\s*\)\s*$", "", QUALIFIERS.sub("", declarator))
        if trimmed == declarator:
            break
        declarator = trimmed
    if not declarator.rstrip().endswith(")"):
        return "other", None
    close = len(declarator.rstrip()) - 1
    depth, k = 0, close
    while k >= 0:
        depth += {")": 1, "(": -1}.get(body[k], 0)
        if depth == 0:
            break
        k -= 1
    name = NAME.search(body[:k])
    if not name or name.group(1).split("::")[-1].strip() in KEYWORDS:
        return "other", None
    return "function", (offset + name.start(1), re.sub(r"\s+", "", name.group(1)))


def functions(text):
    """(line, name, length in lines) of every function defined in `text`."""
    code = blank(text)
    found = []

    def line_of(offset):
        return code.count("\n", 0, offset) + 1

    def scan(start, end):
        head_start, k, parens = start, start, 0
        while k < end:
            c = code[k]
            if c in "()":
                parens += 1 if c == "(" else -1
            elif parens > 0 and c == "{":
                # A default argument's braces (`std::string hint = {}`).
                k = closing(code, k) + 1
                continue
            elif c in ";}":
                head_start = k + 1
            elif c == ":" and re.search(r"\b(?:public|private|protected)\s*$",
                                        code[head_start:k]):
                head_start = k + 1
            elif c == "{":
                close = closing(code, k)
                kind, what = classify(code[head_start:k])
                if kind == "initializer":
                    k = close + 1
                    continue
                if kind == "scope":
                    scan(k + 1, close)
                elif kind == "function":
                    first = line_of(head_start + what[0])
                    found.append((first, what[1], line_of(close) - first + 1))
                head_start = k = close + 1
                continue
            k += 1

    scan(0, len(code))
    return found


def too_long(src):
    """Every function over MAX_LINES in the tree: (path under src/, line,
    name, length), in path and line order."""
    found = []
    for folder, _, files in sorted(os.walk(src)):
        for file in sorted(files):
            if not file.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(folder, file)
            relative = os.path.relpath(path, src).replace(os.sep, "/")
            with open(path, encoding="utf-8") as source:
                text = source.read()
            for line, name, length in functions(text):
                if length > MAX_LINES:
                    found.append((relative, line, name, length))
    return found


def problems(src, allowed=None):
    """What fails: a function over MAX_LINES not allowed, and an entry of
    ALLOWED that names no function over the limit any more."""
    listed = ALLOWED if allowed is None else allowed
    found, seen = [], set()
    for relative, line, name, length in too_long(src):
        if (relative, name) in listed:
            seen.add((relative, name))
            continue
        found.append(f"{relative}:{line}: {name} is {length} lines, over {MAX_LINES}; "
                     f"split it into helpers that say what each part does")
    for relative, name in sorted(listed - seen):
        found.append(f"{relative}: {name} is listed in function_length.py but is no longer "
                     f"over {MAX_LINES} lines; remove it from the list")
    return found


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    src = argv[1] if len(argv) > 1 else os.path.join(here, os.pardir, os.pardir, "src")
    found = problems(src)
    for line in found:
        print(f"function_length: {line}", file=sys.stderr)
    if found:
        print(f"function_length: {len(found)} problem(s)", file=sys.stderr)
        return 1
    print(f"function_length: no function over {MAX_LINES} lines "
          f"({len(ALLOWED)} table(s) allowed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
