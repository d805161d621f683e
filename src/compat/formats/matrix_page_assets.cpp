#include "compat/formats/matrix_page_assets.hpp"

namespace dlpack_usm::compat {

const std::string_view kMatrixPageStyle = R"CSS(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
  background: #fff; margin: 0 1.5rem 2rem; }
h1 { font-size: 1.6rem; margin: 1rem 0 0.25rem; }
h2 { font-size: 1.15rem; margin: 1rem 0 0.4rem; }
table { border-collapse: separate; border-spacing: 0; }
th, td { padding: 2px 8px; text-align: left; vertical-align: top; }
.inputs td, .inputs th { border-bottom: 1px solid #d0d0d0; }
ul.legend { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap;
  gap: 4px 18px; max-width: 80rem; }
ul.legend small { color: #444; }
.chip { display: inline-block; min-width: 1.6em; text-align: center; font-weight: 600;
  font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; border: 1px solid #999; }
.note { max-width: 60rem; color: #333; }
.filters { position: sticky; top: 0; z-index: 5; background: #f3f5f8; border: 1px solid #c8ccd4;
  padding: 6px 10px; margin: 1rem 0 0; display: flex; flex-wrap: wrap; gap: 6px 18px;
  align-items: center; }
.filters label { white-space: nowrap; }
.filters select { font: inherit; }
#matrix thead th { position: sticky; top: var(--filters-height, 0px); z-index: 3;
  background: #2b3442; color: #fff; border-right: 1px solid #fff; white-space: nowrap; }
#matrix th.lib { text-align: center; white-space: normal; min-width: 5em; max-width: 9em; }
#matrix tr.section th { background: #e9ecf1; color: #1a1a1a; font-weight: 600;
  border-top: 2px solid #2b3442; }
#matrix tbody th[scope="row"] { position: sticky; left: 0; z-index: 1; background: #fff;
  font-weight: normal; font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; }
#matrix td { border-bottom: 1px solid #e2e2e2; }
#matrix td.place { color: #333; white-space: nowrap; }
td.c { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-weight: 600;
  text-align: center; min-width: 3.5em; }
td.c.g-fails { box-shadow: inset 0 0 0 2px currentColor; }
td.c:focus { outline: 3px solid #1a5fb4; outline-offset: -3px; }
td.empty { background: #fff; }
tr.agree th[scope="row"]::after { content: " \2261"; color: #666; }
#tip { position: absolute; z-index: 10; max-width: 36rem; background: #fffef5; color: #1a1a1a;
  border: 1px solid #555; box-shadow: 0 2px 8px rgba(0,0,0,.25); padding: 6px 10px;
  font-size: 13px; pointer-events: none; }
#tip strong { display: block; margin-bottom: 2px; }
#tip p { margin: 2px 0; }
#tip code { display: block; white-space: pre-wrap; word-break: break-all; background: #f0f0f0;
  padding: 2px 4px; margin-top: 4px; }
footer { margin-top: 2rem; color: #555; }
@media print { .filters, #tip { display: none; } tr[hidden], tbody[hidden] { display: table-row; } }
)CSS";

const std::string_view kMatrixPageScript = R"JS(
(function () {
  "use strict";
  var table = document.getElementById("matrix");
  var form = document.getElementById("filters");
  var tip = document.getElementById("tip");
  if (!table || !form || !tip) return;
  var selects = {
    direction: document.getElementById("f-direction"),
    axis: document.getElementById("f-axis"),
    place: document.getElementById("f-place"),
    outcome: document.getElementById("f-outcome")
  };
  var agree = document.getElementById("f-agree");
  var count = document.getElementById("f-count");
  var rows = Array.prototype.slice.call(table.querySelectorAll("tr.row"));

  function hasOption(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === value; });
  }
  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    // The fragment is the whole state: a filter it does not name shows all.
    Object.keys(selects).forEach(function (key) {
      var value = params.get(key);
      selects[key].value = value !== null && hasOption(selects[key], value) ? value : "";
    });
    if (agree) agree.checked = params.get("agree") === "show";
  }
  function writeHash() {
    var params = new URLSearchParams();
    Object.keys(selects).forEach(function (key) {
      if (selects[key].value) params.set(key, selects[key].value);
    });
    if (agree && agree.checked) params.set("agree", "show");
    var hash = params.toString();
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }
  function rowMatches(row, want) {
    var body = row.parentNode.dataset;
    if (want.direction && body.direction !== want.direction) return false;
    if (want.axis && body.axis !== want.axis) return false;
    if (want.place && row.dataset.place !== want.place) return false;
    if (want.outcome && row.dataset.outcomes.split(" ").indexOf(want.outcome) < 0) return false;
    return !row.classList.contains("agree") || !agree || agree.checked;
  }
  function apply() {
    var want = {};
    Object.keys(selects).forEach(function (key) { want[key] = selects[key].value; });
    var shown = 0;
    rows.forEach(function (row) {
      row.hidden = !rowMatches(row, want);
      if (!row.hidden) shown++;
    });
    Array.prototype.forEach.call(table.tBodies, function (body) {
      body.hidden = !body.querySelector("tr.row:not([hidden])");
    });
    count.textContent = shown + " of " + rows.length + " rows shown";
  }
  function showTip(cell) {
    var lines = (cell.dataset.tip || "").split("\n");
    tip.replaceChildren();
    lines.forEach(function (line, index) {
      var element;
      if (index === 0) {
        element = document.createElement("strong");
      } else if (line.indexOf("repro: ") === 0) {
        element = document.createElement("code");
        line = line.slice(7);
      } else {
        element = document.createElement("p");
      }
      element.textContent = line;
      tip.appendChild(element);
    });
    tip.hidden = false;
    var rect = cell.getBoundingClientRect();
    var left = Math.min(rect.left, document.documentElement.clientWidth - tip.offsetWidth - 8);
    tip.style.left = Math.max(0, left) + window.scrollX + "px";
    tip.style.top = rect.bottom + window.scrollY + 4 + "px";
  }
  function hideTip() { tip.hidden = true; }

  // The title stays the no-script tooltip; with the script it becomes the
  // richer one (and the cell's accessible name), not both at once.
  table.querySelectorAll("td.c[title]").forEach(function (cell) {
    cell.dataset.tip = cell.title;
    cell.setAttribute("aria-label", cell.textContent + ": " + cell.title.replace(/\n/g, ". "));
    cell.removeAttribute("title");
  });
  table.addEventListener("mouseover", function (event) {
    var cell = event.target.closest("td.c");
    if (cell) showTip(cell); else hideTip();
  });
  table.addEventListener("mouseleave", hideTip);
  table.addEventListener("focusin", function (event) {
    var cell = event.target.closest("td.c");
    if (cell) showTip(cell);
  });
  table.addEventListener("focusout", hideTip);
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hideTip(); });

  form.hidden = false;
  document.documentElement.style.setProperty("--filters-height", form.offsetHeight + "px");
  readHash();
  apply();
  form.addEventListener("change", function () { apply(); writeHash(); });
  window.addEventListener("hashchange", function () { readHash(); apply(); });
})();
)JS";

}  // namespace dlpack_usm::compat
