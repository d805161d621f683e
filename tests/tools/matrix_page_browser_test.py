#!/usr/bin/env python3
"""The HTML page of `dlpack-usm report matrix`, rendered by a real browser
(Debian's headless Chromium), as people will see it:

1. without JavaScript (its DOM read through DevTools with scripts off; the
   first --dump-dom, with them on, must agree): a real table with one
   column per library, the legend, a known cell's symbol and title; the
   filters stay hidden; the <script> in a library's exception is text;
2. with JavaScript (a DevTools session over --remote-debugging-pipe): the
   filters shown and working (outcome, axis and memory, from a click and
   from the URL's #fragment), the rows where every library agrees folded
   and unfolded, the header sticky when scrolled, the tooltip of a known
   cell on hover, and no script of a report run;
3. a screenshot (--screenshot --window-size) of the expected size that is
   not blank (colours of the legend and the cells, not one background);
4. the pairwise grid at the top (fixtures/pairs): N x N, every measured pair
   a link that opens the list of its handoffs, and its filter keeping the
   pairs with a failure alone.

The page is made from the committed profiles (fixtures/consumer_profiles,
fixtures/profiles, the pairwise reports of fixtures/pairs) and tests/data/matrix/profile-tinyarray.json, whose
exception message carries a <script>. Skips (77) only where Chromium is not
installed, and fails then too where DLPACK_USM_REQUIRE_PEERS=1 or
DLPACK_USM_REQUIRE_USM=1 (CI; scripts/setup.sh installs it).

Usage: matrix_page_browser_test.py DLPACK_USM SOURCE_DIR WORK_DIR"""

import glob
import html.parser
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import headless_chromium  # noqa: E402
from optional_module import SKIPPED, required  # noqa: E402

WINDOW = (1280, 900)
# The cell the test knows: numpy declines a USM device tensor of int8 with a
# RuntimeError, which warns (fixtures/consumer_profiles/numpy.json). Its
# column is the one whose title starts so ("numpy 2.4.6 (ci)" where a
# profile report of the CI machine joins it).
KNOWN = {"library": "numpy 2.4.6", "direction": "consumer", "axis": "dtype", "value": "int8",
         "place": "USM device", "symbol": "-!",
         "title": [" — consumer dtype int8, USM device",
                   "declined (warn): RuntimeError (Unsupported device in DLTensor.)",
                   "repro: python3 -m dlpack_usm consume numpy.from_dlpack --device "
                   "opencl:cpu:0 --cell dtype-int8"]}


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, condition, message):
        if not condition:
            self.messages.append(message)
            print(f"FAIL: {message}", file=sys.stderr)


class DomFacts(html.parser.HTMLParser):
    """What the test asks of a page without its script: the library
    headers, the legend's outcomes, each row's cells, script elements."""

    def __init__(self):
        super().__init__()
        self.libraries, self.legend, self.rows, self.scripts = [], [], [], 0
        self.filters_hidden = None
        self._text, self._row, self._cell, self._body = None, None, None, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if tag == "form" and attrs.get("id") == "filters":
            self.filters_hidden = "hidden" in attrs
        if tag == "tbody":
            self._body = attrs
        if tag == "li" and "data-outcome" in attrs:
            self.legend.append(attrs["data-outcome"])
        if tag == "tr" and "row" in attrs.get("class", "").split():
            self._row = {"direction": self._body.get("data-direction"),
                         "axis": self._body.get("data-axis"), "place": attrs.get("data-place"),
                         "cells": [], "value": ""}
        if tag == "th" and attrs.get("class") == "lib":
            self._text = ""
        if self._row is not None and tag == "th" and attrs.get("scope") == "row":
            self._text = ""
        if self._row is not None and tag == "td" and attrs.get("class") != "place":
            self._cell = {"title": attrs.get("title", ""), "text": ""}

    def handle_data(self, data):
        if self._text is not None:
            self._text += data
        if self._cell is not None:
            self._cell["text"] += data

    def handle_endtag(self, tag):
        if tag == "th" and self._text is not None:
            if self._row is not None and not self._row["value"]:
                self._row["value"] = self._text
            else:
                self.libraries.append(self._text)
            self._text = None
        if tag == "td" and self._cell is not None:
            self._row["cells"].append(self._cell)
            self._cell = None
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None


def make_page(tool, source, work):
    inputs = sorted(glob.glob(os.path.join(source, "fixtures/consumer_profiles/*.json")) +
                    glob.glob(os.path.join(source, "fixtures/profiles/*.json")) +
                    glob.glob(os.path.join(source, "fixtures/pairs/*.json")))
    inputs.append(os.path.join(source, "tests/data/matrix/profile-tinyarray.json"))
    page = os.path.join(work, "matrix.html")
    subprocess.run([tool, "report", "matrix", *inputs, "--format", "html", "--output", page],
                   check=True, timeout=120)
    return page


def check_without_script(browser, page, failures):
    tools = headless_chromium.DevTools(browser, WINDOW, timeout=60)
    try:
        tools.open("file://" + page, scripts=False)
        dom = tools.page_html()
    finally:
        tools.close()
    facts = DomFacts()
    facts.feed(dom)
    # The same page with its script, as --dump-dom prints it: the filters
    # shown, the table the same.
    scripted = DomFacts()
    scripted.feed(browser.run(["--dump-dom", "file://" + page], timeout=90))
    failures.check(scripted.filters_hidden is False, "the script shows the filters (--dump-dom)")
    failures.check(scripted.libraries == facts.libraries and len(scripted.rows) == len(facts.rows),
                   "the script changes the table's columns or rows")
    known_column = [i for i, title in enumerate(facts.libraries)
                    if title.startswith(KNOWN["library"])]
    failures.check(len(known_column) == 1 and "tinyarray 1.2 (ci)" in facts.libraries,
                   f"one column per library: {facts.libraries}")
    failures.check(len(facts.libraries) == len(set(facts.libraries)),
                   f"a library has two columns: {facts.libraries}")
    failures.check({"accepted", "declined", "emitted", "emitted-invalid", "crash"}
                   <= set(facts.legend), f"the legend: {facts.legend}")
    failures.check(facts.filters_hidden is True, "the filters are hidden without script")
    failures.check(facts.scripts == 1, f"{facts.scripts} script elements, the page has one")
    column = known_column[0] if known_column else 0
    known = [row for row in facts.rows
             if (row["direction"], row["axis"], row["value"], row["place"]) ==
             (KNOWN["direction"], KNOWN["axis"], KNOWN["value"], KNOWN["place"])]
    failures.check(len(known) == 1, f"one row for the known cell, found {len(known)}")
    if known:
        cell = known[0]["cells"][column]
        failures.check(cell["text"] == KNOWN["symbol"], f"the known cell shows {cell['text']!r}")
        failures.check(cell["title"].startswith(facts.libraries[column] + KNOWN["title"][0]) and
                       all(line in cell["title"] for line in KNOWN["title"]),
                       f"the known cell's title: {cell['title']!r}")
    hostile = [cell for row in facts.rows for cell in row["cells"]
               if "<script>window.__pwned" in cell["title"]]
    failures.check(len(hostile) == 1, "the <script> of an exception is a title's text")
    return facts


PAGE_FACTS = """(() => {
  const table = document.getElementById("matrix");
  const rows = [...table.querySelectorAll("tr.row")];
  const visible = rows.filter(r => !r.hidden && !r.parentNode.hidden);
  return {
    filtersShown: !document.getElementById("filters").hidden,
    count: document.getElementById("f-count").textContent,
    rows: rows.length,
    visible: visible.length,
    agreeVisible: visible.filter(r => r.classList.contains("agree")).length,
    agreeRows: rows.filter(r => r.classList.contains("agree")).length,
    visibleAxes: [...new Set(visible.map(r => r.parentNode.dataset.axis))],
    visiblePlaces: [...new Set(visible.map(r => r.dataset.place))],
    visibleOutcomes: visible.map(r => [...r.querySelectorAll("td.c")].map(c => c.dataset.outcome)),
    hash: location.hash,
    titles: table.querySelectorAll("td.c[title]").length,
    pwned: typeof window.__pwned,
  };
})()"""

SET_FILTER = """(() => {{
  const select = document.getElementById("{id}");
  select.value = {value!r};
  select.dispatchEvent(new Event("change", {{bubbles: true}}));
  return select.value;
}})()"""

KNOWN_CELL = """(() => {{
  const headers = [...document.querySelectorAll("#matrix th.lib")].map(th => th.textContent);
  const column = headers.findIndex(title => title.startsWith({library!r}));
  const body = document.querySelector('#matrix tbody[data-direction="{direction}"][data-axis="{axis}"]');
  const row = [...body.querySelectorAll("tr.row")].find(
      r => r.querySelector("th").textContent === {value!r} && r.dataset.place === {place!r});
  const cell = row.querySelectorAll("td.c, td.empty")[column];
  cell.scrollIntoView({{block: "center"}});
  const rect = cell.getBoundingClientRect();
  return {{x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, text: cell.textContent,
          library: headers[column]}};
}})()"""


def check_filters(tools, failures):
    facts = tools.evaluate(PAGE_FACTS)
    failures.check(facts["filtersShown"], "the script shows the filters")
    failures.check(facts["titles"] == 0, "the script turns titles into its tooltip")
    failures.check(facts["pwned"] == "undefined", "a report's <script> ran")
    failures.check(facts["agreeRows"] > 0 and facts["agreeVisible"] == 0,
                   f"rows where every library agrees are folded: {facts}")
    failures.check(facts["count"] == f"{facts['visible']} of {facts['rows']} rows shown",
                   f"the count says {facts['count']!r}")
    tools.evaluate(SET_FILTER.format(id="f-outcome", value="crash"))
    crash = tools.evaluate(PAGE_FACTS)
    failures.check(0 < crash["visible"] < facts["visible"], f"outcome=crash shows {crash['visible']}")
    failures.check(all("crash" in outcomes for outcomes in crash["visibleOutcomes"]),
                   "every row outcome=crash shows has a crash")
    failures.check(crash["hash"] == "#outcome=crash", f"the filter is in the URL: {crash['hash']}")
    tools.evaluate(SET_FILTER.format(id="f-outcome", value=""))
    tools.evaluate('(() => { const box = document.getElementById("f-agree"); box.click(); '
                   'return box.checked; })()')
    unfolded = tools.evaluate(PAGE_FACTS)
    failures.check(unfolded["agreeVisible"] == unfolded["agreeRows"] and
                   unfolded["visible"] == unfolded["rows"], f"unfolded: {unfolded['visible']}")
    # A filtered view is a link: the fragment sets the filters on load.
    tools.evaluate('location.hash = "#axis=dtype&place=host"')
    tools.wait_for('document.getElementById("f-axis").value === "dtype"')
    linked = tools.evaluate(PAGE_FACTS)
    failures.check(linked["visibleAxes"] == ["dtype"] and linked["visiblePlaces"] == ["host"],
                   f"#axis=dtype&place=host shows {linked['visibleAxes']} {linked['visiblePlaces']}")
    tools.evaluate('location.hash = "#agree=show"')
    tools.wait_for('document.getElementById("f-axis").value === ""')


def check_sticky_header_and_tooltip(tools, failures):
    tools.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    header = tools.evaluate('(() => { const r = document.querySelector("#matrix thead th")'
                            '.getBoundingClientRect(); return [r.top, window.scrollY]; })()')
    failures.check(header[1] > 500 and 0 <= header[0] < 120,
                   f"the header stays on screen when scrolled: top {header[0]} at {header[1]}")
    cell = tools.evaluate(KNOWN_CELL.format(**KNOWN))
    failures.check(cell["text"] == KNOWN["symbol"], f"the known cell shows {cell['text']!r}")
    tools.hover(cell["x"], cell["y"])
    tools.wait_for('!document.getElementById("tip").hidden')
    tip = tools.evaluate('(() => { const t = document.getElementById("tip"); const r = '
                         't.getBoundingClientRect(); return {text: t.innerText, '
                         'strong: t.querySelector("strong").textContent, code: '
                         't.querySelector("code") && t.querySelector("code").textContent, '
                         'width: r.width, height: r.height}; })()')
    failures.check(tip["strong"] == cell["library"] + KNOWN["title"][0],
                   f"the tooltip's heading: {tip['strong']!r}")
    failures.check(KNOWN["title"][1] in tip["text"], f"the tooltip's note: {tip['text']!r}")
    failures.check(tip["code"] == KNOWN["title"][2][len("repro: "):],
                   f"the tooltip's repro: {tip['code']!r}")
    failures.check(tip["width"] > 50 and tip["height"] > 20, f"the tooltip's size: {tip}")
    tools.hover(1, 1)
    tools.wait_for('document.getElementById("tip").hidden')


GRID_FACTS = """(() => {
  const grid = document.getElementById("pair-grid");
  if (!grid) return null;
  const visible = (cell) => {
    const link = cell.querySelector("a");
    return link !== null && getComputedStyle(link).visibility === "visible";
  };
  const cells = [...grid.querySelectorAll("td.pair")];
  const rect = grid.getBoundingClientRect();
  return {rows: grid.tBodies[0].rows.length, columns: grid.tHead.rows[0].cells.length - 1,
          filterShown: !document.getElementById("pair-filter").hidden,
          measured: cells.filter((cell) => cell.querySelector("a")).length,
          visibleLinks: cells.filter(visible).length,
          visibleFailing: cells.filter((cell) => cell.dataset.result === "fails" && visible(cell))
            .length,
          failing: cells.filter((cell) => cell.dataset.result === "fails").length,
          width: rect.width, height: rect.height};
})()"""


def check_pair_grid(tools, failures):
    """The pairwise grid at the top: a row per producer and a column per
    consumer, measured cells linked; its filter keeps the failing pairs; a
    cell's link opens the list of its handoffs."""
    grid = tools.evaluate(GRID_FACTS)
    failures.check(grid is not None, "the page has the pairwise grid (#pair-grid)")
    if grid is None:
        return
    failures.check(grid["rows"] >= 2 and grid["rows"] == grid["columns"],
                   f"the grid is N x N with N >= 2: {grid}")
    failures.check(grid["width"] > 100 and grid["height"] > 40, f"the grid is visible: {grid}")
    failures.check(grid["filterShown"], "the script shows the grid's filter")
    failures.check(grid["visibleLinks"] == grid["measured"] > 0,
                   f"every measured pair is a link: {grid}")
    tools.evaluate('document.getElementById("pairs-failing").click()')
    only = tools.evaluate(GRID_FACTS)
    failures.check(only["visibleLinks"] == only["failing"] == only["visibleFailing"],
                   f"'pairs with a failure only' keeps the failing pairs alone: {only}")
    tools.evaluate('document.getElementById("pairs-failing").click()')
    target = tools.evaluate('(() => { const link = document.querySelector("#pair-grid td.pair a");'
                            ' link.click(); return link.getAttribute("href").slice(1); })()')
    tools.wait_for(f'document.getElementById("{target}").open === true')
    opened = tools.evaluate(f'(() => {{ const d = document.getElementById("{target}"); '
                            'return [location.hash, d.querySelectorAll("li").length]; })()')
    failures.check(opened[0] == "#" + target and opened[1] > 0,
                   f"the link opens its pair's handoffs: {opened}")


def check_with_script(browser, page, failures):
    tools = headless_chromium.DevTools(browser, WINDOW, timeout=60)
    try:
        tools.open("file://" + page)
        check_pair_grid(tools, failures)
        tools.evaluate('location.hash = ""')
        check_filters(tools, failures)
        check_sticky_header_and_tooltip(tools, failures)
    finally:
        tools.close()


def check_screenshot(browser, page, work, failures):
    png = os.path.join(work, "matrix.png")
    browser.run([f"--screenshot={png}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                 "file://" + page], timeout=90)
    width, height, colours, unlike = headless_chromium.png_facts(png)
    failures.check((width, height) == WINDOW, f"the screenshot is {width}x{height}, not {WINDOW}")
    failures.check(colours >= 12, f"the screenshot has {colours} colours: blank?")
    failures.check(unlike > 0.03, f"{unlike:.1%} of the screenshot differs from its background")
    print(f"screenshot {png}: {width}x{height}, {colours} colours, {unlike:.1%} not background")


def main(argv):
    tool, source, work = argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    executable = headless_chromium.find_chromium()
    if executable is None:
        print("Chromium is not installed: the matrix page is not rendered in a browser; "
              "scripts/setup.sh installs it (apt-get install chromium)", file=sys.stderr)
        return 1 if required() else SKIPPED
    page = make_page(tool, source, work)
    failures = Failures()
    browser = headless_chromium.Browser(executable, work)
    try:
        check_without_script(browser, page, failures)
        check_with_script(browser, page, failures)
        check_screenshot(browser, page, work, failures)
    finally:
        stray = browser.end_all()
    failures.check(not headless_chromium.processes_using(browser.profile),
                   "a chromium process outlived the test")
    if stray:
        print(f"killed {len(stray)} chromium process(es) that left their group", file=sys.stderr)
    if failures.messages:
        print(f"{len(failures.messages)} check(s) of the matrix page failed", file=sys.stderr)
        return 1
    print(f"matrix page: rendered by {executable}, every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
