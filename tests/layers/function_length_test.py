#!/usr/bin/env python3
"""The function-length check fails for a function of 61 lines and passes
one of 60, is not fooled by braces in strings, characters and comments, and
passes for the tree as it is (ctest: function_length)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import function_length  # noqa: E402
from test_support import expect, tree  # noqa: E402


def function(head, lines):
    """A definition of `lines` lines in all: `head {`, statements, `}`."""
    body = "".join(f"  step({k});\n" for k in range(lines - 2))
    return f"{head} {{\n{body}}}\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, os.pardir, os.pardir, "src")
    expect(function_length.main(["function_length", src]) == 0,
           "no function of the tree is too long")

    limits = tree({"exchange/a.cpp": "namespace dlpack_usm {\n" +
                   function("void at_the_limit()", 60) + "\n" +
                   function("int Owner::over_the_limit(int x) const", 61) + "}\n"})
    found = function_length.problems(limits, allowed=set())
    expect(found == ["exchange/a.cpp:63: Owner::over_the_limit is 61 lines, over 60; split it "
                     "into helpers that say what each part does"],
           f"61 lines fail, 60 pass: {found}")

    # Braces in literals and comments, a constructor's braced initializers,
    # a default argument, a class and a table: one function of 4 lines.
    tricky = tree({"common/b.hpp": 'struct S {\n  S(int a = {}) : a_{a}, b_("{") {\n'
                   "    // }\n    char c = '}'; /* { */\n  }\n  int a_; const char* b_;\n"
                   "  S(S&& o) noexcept\n      : a_(o.a_),\n        b_(o.b_) {}\n};\n"
                   'constexpr const char* kTable[] = {"}", "{"};\n' +
                   function("R\"x(\nnot code)x\"; void after()", 3)})
    expect(function_length.functions(open(os.path.join(tricky, "common/b.hpp")).read()) ==
           [(2, "S", 4), (7, "S", 3), (13, "after", 3)], "literals, comments and initializers are skipped")

    listed = tree({"cli/c.cpp": function("void add_options()", 70)})
    expect(function_length.problems(listed, allowed={("cli/c.cpp", "add_options")}) == [],
           "an allowed table passes")
    stale = function_length.problems(listed, allowed={("cli/c.cpp", "add_options"),
                                                      ("cli/c.cpp", "gone")})
    expect(stale == ["cli/c.cpp: gone is listed in function_length.py but is no longer over 60 "
                     "lines; remove it from the list"], f"a stale entry is named: {stale}")
    print("function_length: 61 lines fail, 60 pass, and the tree passes")


if __name__ == "__main__":
    main()
