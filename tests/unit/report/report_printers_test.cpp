// The two printers every report writes to: the same walk gives people aligned
// blocks, titled sections and tables, and machines one JSON document with the
// typed values; what is for one audience never reaches the other.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "report/json_printer.hpp"
#include "report/json_stream_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {
namespace {

TextView titled(std::string title, std::size_t indent) {
  TextView view;
  view.title = std::move(title);
  view.indent = indent;
  return view;
}

TextView table_of(std::vector<Column> columns, std::size_t indent = 0) {
  TextView view;
  view.columns = std::move(columns);
  view.indent = indent;
  return view;
}

TextView hidden_view() {
  TextView view;
  view.hidden = true;
  return view;
}

// A small report with every kind of call, as the reports in src/report make them.
void print_sample(Printer& printer) {
  printer.data("schema", "sample/1");
  printer.line("sample report");
  {
    ObjectScope tensor(printer, "tensor", titled("t.json#0", 2));
    printer.field("abi", "DLManagedTensorVersioned", "DLManagedTensorVersioned");
    printer.field("version", {{"major", 1}, {"minor", 3}}, "1.3");
    {
      // One object for machines; its fields join the enclosing block in text.
      ObjectScope device(printer, "device");
      printer.field("device_id", 0, "0");
    }
    {
      ListScope notes(printer, "notes", titled("notes", 2));
      printer.data({}, "first");
      printer.line("- first");
    }
    ListScope empty(printer, "empty", titled("never shown", 2));
  }
  {
    ListScope rows(printer, "rows",
                   table_of({{"ID", "id"}, {"NAME", "name"}, {"SIZE", "size"}}, 2));
    for (int id : {0, 1}) {
      ObjectScope row(printer, {});
      printer.field("name", fmt::format("device {}", id), fmt::format("device-{}", id));
      printer.field("id", id, std::to_string(id));
      printer.field("size", 1000 * (id + 1), fmt::format("{} B", 1000 * (id + 1)));
      printer.data("vendor", "x");
      ListScope subs(printer, "subs");
      ObjectScope sub(printer, {});
      printer.field("id", id, fmt::format("({})", id));
    }
  }
  {
    ObjectScope machines_only(printer, "environment", hidden_view());
    printer.field("backend", "opencl", "opencl");
    printer.line("not for people");
  }
  printer.line("two");
  printer.line("lines");
}

TEST(TextPrinter, PrintsBlocksSectionsAndTablesForPeople) {
  TextPrinter printer;
  print_sample(printer);
  EXPECT_EQ(printer.text(),
            "sample report\n"
            "t.json#0\n"
            "  abi        DLManagedTensorVersioned\n"
            "  version    1.3\n"
            "  device_id  0\n"
            "  notes\n"
            "    - first\n"
            "  ID   NAME      SIZE\n"
            "  0    device-0  1000 B\n"
            "  (0)\n"
            "  1    device-1  2000 B\n"
            "  (1)\n"
            "two\n"
            "lines\n");
}

TEST(JsonPrinter, WritesTheTypedValuesForMachines) {
  JsonPrinter printer;
  print_sample(printer);
  nlohmann::ordered_json expected = nlohmann::ordered_json::parse(R"({
    "schema": "sample/1",
    "tensor": {
      "abi": "DLManagedTensorVersioned",
      "version": {"major": 1, "minor": 3},
      "device": {"device_id": 0},
      "notes": ["first"],
      "empty": []
    },
    "rows": [
      {"name": "device 0", "id": 0, "size": 1000, "vendor": "x", "subs": [{"id": 0}]},
      {"name": "device 1", "id": 1, "size": 2000, "vendor": "x", "subs": [{"id": 1}]}
    ],
    "environment": {"backend": "opencl"}
  })");
  EXPECT_EQ(printer.document(), expected) << printer.document().dump(2);
  // Keys keep the walk's order, so documents read as the text does.
  EXPECT_EQ(printer.document().begin().key(), "schema");
}

TEST(JsonPrinter, ARootListTakesItemsWithoutKeys) {
  JsonPrinter printer(Value::array());
  printer.data({}, 1);
  {
    ObjectScope item(printer, {});
    printer.field("a", true, "yes");
  }
  printer.data({}, nullptr);
  EXPECT_EQ(printer.document(), Value::parse(R"([1, {"a": true}, null])"));
}

TEST(TextPrinter, AlignsEachBlockOnItsOwnKeys) {
  TextPrinter printer;
  {
    ObjectScope first(printer, "first", titled("first", 2));
    printer.field("a", 1, "1");
    printer.field("longer_key", 2, "2");
  }
  {
    ObjectScope second(printer, "second", titled("second", 2));
    printer.field("b", 3, "3");
  }
  EXPECT_EQ(printer.text(),
            "first\n"
            "  a           1\n"
            "  longer_key  2\n"
            "second\n"
            "  b  3\n");
}

TEST(TextPrinter, ATitledSectionEndsItsBlock) {
  TextPrinter printer;
  {
    ObjectScope section(printer, "section", titled("section", 0));
    printer.field("a", 1, "1");
  }
  printer.field("longer_key", 2, "2");
  EXPECT_EQ(printer.text(),
            "section\n"
            "a  1\n"
            "longer_key  2\n");
}

// A line is one line: what it quotes (a driver's name, a label, a message)
// cannot start another, or send a terminal a control sequence.
TEST(TextPrinter, ALineIsOneIndentedLineWithItsControlBytesEscaped) {
  TextPrinter printer;
  ObjectScope scope(printer, "s", titled("", 4));
  printer.line("a\n\nFAKE gate: PASSED\x1b[2K\x07 \xff caf\xc3\xa9");
  printer.line("");
  EXPECT_EQ(printer.text(), "    a\\x0A\\x0AFAKE gate: PASSED\\x1B[2K\\x07 \\xFF caf\xc3\xa9\n\n");
}

TEST(TextPrinter, FieldsTitlesAndTableCellsAreEscaped) {
  TextPrinter printer;
  {
    ObjectScope section(printer, "s", titled("title\nFAKE", 0));
    printer.field("name", "x", "GPU\x1b[31m\nFAKE");
  }
  {
    ListScope rows(printer, "rows", table_of({{"NAME", "name"}}));
    ObjectScope row(printer, {});
    printer.field("name", "x", "GPU\r\nFAKE");
  }
  TextTable table({"DEVICE"});
  table.add_row({"gpu\x1b]0;t\x07\nFAKE"});
  printer.table(table);
  EXPECT_EQ(printer.text(),
            "title\\x0AFAKE\n"
            "name  GPU\\x1B[31m\\x0AFAKE\n"
            "NAME\n"
            "GPU\\x0D\\x0AFAKE\n"
            "DEVICE\n"
            "gpu\\x1B]0;t\\x07\\x0AFAKE\n");
}

TEST(TextPrinter, AnEmptyTableAndAnEmptyTitledSectionPrintNothing) {
  TextPrinter printer;
  { ListScope rows(printer, "rows", table_of({{"ID", "id"}})); }
  {
    ObjectScope section(printer, "section", titled("title", 2));
    printer.data("only_for_machines", 1);
  }
  EXPECT_EQ(printer.text(), "");
}

TEST(TextPrinter, AFieldWithoutAColumnIsLeftOutOfTheRow) {
  TextPrinter printer;
  {
    ListScope rows(printer, "rows", table_of({{"ID", "id"}, {"TYPE", "type"}}));
    ObjectScope row(printer, {});
    printer.field("type", "cpu", "cpu");
    printer.field("opencl_version", "3.0", "3.0");
    printer.field("id", 7, "7");
  }
  EXPECT_EQ(printer.text(),
            "ID  TYPE\n"
            "7   cpu\n");
}

TEST(Printers, ATableWalkedOnceGivesARowPerObjectAndAListOfObjects) {
  auto walk = [](Printer& printer) {
    ListScope rows(printer, "findings",
                   table_of({{"SEVERITY", "severity"}, {"RULE", "rule_id"}}, 2));
    ObjectScope row(printer, {});
    printer.field("rule_id", "DLP-X", "DLP-X");
    printer.field("severity", "error", "error");
  };
  TextPrinter text;
  walk(text);
  JsonPrinter json;
  walk(json);
  EXPECT_EQ(text.text(),
            "  SEVERITY  RULE\n"
            "  error     DLP-X\n");
  EXPECT_EQ(json.document(),
            Value::parse(R"({"findings": [{"rule_id": "DLP-X", "severity": "error"}]})"));
}

// What JsonStreamPrinter writes for `walk`, read back from a temporary file.
std::string streamed(const std::function<void(Printer&)>& walk) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::tmpfile(), &std::fclose);
  JsonStreamPrinter printer(file.get());
  walk(printer);
  printer.finish();
  std::string text(static_cast<std::size_t>(std::ftell(file.get())), '\0');
  std::rewind(file.get());
  EXPECT_EQ(std::fread(text.data(), 1, text.size(), file.get()), text.size());
  return text;
}

// What print_json prints for the document JsonPrinter builds from `walk`.
std::string whole(const std::function<void(Printer&)>& walk) {
  JsonPrinter printer;
  walk(printer);
  return printer.document().dump(2, ' ', false, Value::error_handler_t::replace) + "\n";
}

TEST(JsonStreamPrinter, WritesByteForByteWhatTheWholeDocumentPrints) {
  auto walk = [](Printer& printer) {
    print_sample(printer);
    printer.data("bad utf-8", std::string("gpu\xff"));
    { ListScope empty_list(printer, "nothing"); }
    { ObjectScope empty_object(printer, "no fields"); }
    ListScope items(printer, "items");
    printer.data({}, Value{{"nested", Value::array({1, 2})}, {"empty", Value::array()}});
    ObjectScope item(printer, {});
    printer.field("shape", Value::array({3, 5}), "3x5");
  };
  EXPECT_EQ(streamed(walk), whole(walk));
}

// The printer holds what it writes and hands it over in 64 KiB pieces: a
// value larger than that, scopes deeper than its literal of spaces, and
// thousands of entries across the pieces' edges, with strings to escape at
// every place in a word, are written as the whole document prints them.
TEST(JsonStreamPrinter, LargeValuesDeepScopesAndManyEntriesAreWrittenWhole) {
  auto walk = [](Printer& printer) {
    printer.data_text("large", std::string(std::size_t{100} << 10, 'x'));
    ListScope entries(printer, "entries");
    for (std::size_t i = 0; i < 5000; ++i) {
      ObjectScope entry(printer, {});
      // A quote or a backslash at every place of a word (appended, not
      // inserted: GCC 12 warns falsely on insert here).
      std::string text(i % 19, 'a');
      text += i % 2 == 0 ? '"' : '\\';
      text.append(i % 7, 'b');
      printer.data_text("text", text);
      printer.data_count("count", i);
    }
    std::vector<std::unique_ptr<ObjectScope>> deep;
    for (int depth = 0; depth < 70; ++depth) {
      deep.push_back(std::make_unique<ObjectScope>(printer, fmt::format("level {}", depth)));
    }
    printer.data("value", Value{{"nested", Value::array({1, 2})}});
    while (!deep.empty()) deep.pop_back();
  };
  EXPECT_EQ(streamed(walk), whole(walk));
}

// Items alike but for one string (capsule check's tensors without
// findings), as FindingsWalk prints them: an object with the string, a
// line starting with it and values that never change.
void print_item(Printer& printer, std::string_view text) {
  ObjectScope item(printer, {});
  printer.data_text("origin", text);
  printer.line(fmt::format("{}  no findings", text));
  ObjectScope counts(printer, "counts");
  printer.data_count("error", 0);
}

// Another kind, whose string is not its first member.
void print_other_item(Printer& printer, std::string_view text) {
  ObjectScope item(printer, {});
  printer.data_count("rank", 3);
  printer.data_text("name", text);
  printer.line(fmt::format("{} (other)", text));
}

// A print that breaks item_alike's contract: its string twice, under two
// keys and in two places of a line. Printers that keep items must see it.
void print_twice(Printer& printer, std::string_view text) {
  ObjectScope item(printer, {});
  printer.data_text("origin", text);
  printer.data_text("again", text);
  printer.line(fmt::format("{} and {}", text, text));
}

// Strings a printer may not write from an earlier item's bytes: escapes,
// GitHub's command forms, and one found in the item's constant part.
const std::vector<std::string>& item_texts() {
  static const std::vector<std::string> texts = {
      "f.jsonl#0 (a)", "f.jsonl#1 (b)", "f.jsonl#2 (c\"q)", "f.jsonl#3 (\\)", "f.jsonl#4 \x01",
      "::error::x",    "a##[group]",    "ends with #",      "counts",         "caf\xc3\xa9",
      "error",         "f.jsonl#5 (d)", "f.jsonl#6 (e)"};
  return texts;
}

// A walk of items through item_alike, or through their print itself.
void walk_items(Printer& printer, bool alike) {
  auto item = [&printer, alike](std::string_view text, Printer::ItemPrint print) {
    if (alike) {
      printer.item_alike("origin", text, print);
    } else {
      print(printer, text);
    }
  };
  {
    ListScope items(printer, "items", titled("Items", 2));
    for (int round = 0; round < 2; ++round) {
      for (const std::string& text : item_texts()) item(text, &print_item);
    }
    item("f.jsonl#7 (f)", &print_other_item);
    item("f.jsonl#8 (g)", &print_other_item);
    item("f.jsonl#9 (h)", &print_item);
    printer.field("pending", 1, "1");
    item("f.jsonl#10 (i)", &print_item);
  }
  {
    ListScope twice(printer, "twice");
    for (const std::string& text : item_texts()) item(text, &print_twice);
  }
  ListScope deeper(printer, "deeper");
  ObjectScope group(printer, {});
  ListScope items(printer, "items");
  for (const std::string& text : item_texts()) item(text, &print_item);
}

TEST(JsonStreamPrinter, ItemsAlikeAreWrittenAsEachItemsOwnPrintWritesThem) {
  auto alike = [](Printer& printer) { walk_items(printer, true); };
  auto each = [](Printer& printer) { walk_items(printer, false); };
  EXPECT_EQ(streamed(alike), streamed(each));
  EXPECT_EQ(streamed(alike), whole(each));
}

TEST(TextPrinter, ItemsAlikeAreWrittenAsEachItemsOwnPrintWritesThem) {
  for (std::size_t width : {std::size_t{0}, std::size_t{30}}) {
    TextPrinter alike(width);
    TextPrinter each(width);
    walk_items(alike, true);
    walk_items(each, false);
    EXPECT_EQ(alike.text(), each.text()) << width;
  }
}

TEST(JsonStreamPrinter, AnEmptyWalkIsAnEmptyObject) {
  auto walk = [](Printer&) {};
  EXPECT_EQ(streamed(walk), "{}\n");
  EXPECT_EQ(streamed(walk), whole(walk));
}

// A scope's place is reused once it is closed: a plain scope opened where a
// titled table was shows none of its title, indentation or rows, and a
// table opened where a plain scope was is a table still.
TEST(TextPrinter, AScopeOpenedWhereAnotherWasClosedShowsNothingOfIt) {
  auto table = [](Printer& printer) {
    TextView view;
    view.title = "Rows";
    view.indent = 4;
    view.columns = {{"NAME", "name"}};
    ListScope rows(printer, "rows", view);
    ObjectScope row(printer, {});
    printer.field("name", "a", "a");
  };
  auto plain = [](Printer& printer) {
    ListScope items(printer, "items");
    ObjectScope item(printer, {});
    printer.line("after the table");
    printer.field("key", 1, "1");
  };
  TextPrinter both;
  table(both);
  plain(both);
  table(both);
  TextPrinter first;
  TextPrinter second;
  table(first);
  plain(second);
  EXPECT_EQ(both.text(), first.text() + second.text() + first.text());
}

TEST(TextPrinter, TextTakenBetweenItemsAddsUpToTheWholeText) {
  TextPrinter whole_printer;
  print_sample(whole_printer);
  TextPrinter drained;
  std::string taken;
  {
    ListScope items(drained, "items");
    for (int i = 0; i < 3; ++i) {
      {
        ObjectScope item(drained, {});
        drained.line(fmt::format("item {}", i));
        drained.field("index", i, fmt::format("{}", i));
      }
      taken += drained.take_text();
    }
  }
  taken += drained.take_text();
  EXPECT_EQ(taken, "item 0\nindex  0\nitem 1\nindex  1\nitem 2\nindex  2\n");
  EXPECT_EQ(drained.take_text(), "");
  EXPECT_FALSE(whole_printer.text().empty());
}

// Fitted to a width: a line wraps at blanks, continued two columns further
// in; a block's value wraps under itself; nothing passes the width.
TEST(TextPrinter, AWidthWrapsLinesAndValues) {
  TextPrinter printer(40);
  printer.line("one two three four five six seven eight nine ten");
  {
    ObjectScope section(printer, "s", titled("", 2));
    printer.field("key", "v", "alpha beta gamma delta epsilon zeta eta theta");
  }
  EXPECT_EQ(printer.text(),
            "one two three four five six seven eight\n"
            "  nine ten\n"
            "  key  alpha beta gamma delta epsilon\n"
            "       zeta eta theta\n");
}

TEST(TextPrinter, WithoutAWidthNothingWrapsOrIsCut) {
  TextPrinter printer;
  std::string long_line(300, 'x');
  printer.line(long_line + " end");
  EXPECT_EQ(printer.text(), long_line + " end\n");
}

// A table narrowed to a width cuts its widest columns first, ending their
// cells with "…", and keeps the columns marked whole.
TEST(TextTable, AWidthNarrowsTheWidestColumnsAndKeepsWholeOnes) {
  TextTable table({"ID", "DEVICE", "NAME", "USM"});
  table.keep_whole(1);
  table.add_row({"0", "opencl:cpu:0", "pthread-skylake-avx512-Intel Xeon Processor", "no USM"});
  std::string text = table.render("", 40);
  EXPECT_EQ(text,
            "ID  DEVICE        NAME            USM\n"
            "0   opencl:cpu:0  pthread-skyla…  no USM\n");
}

TEST(TextTable, ATooNarrowWidthCutsTheLinesThemselves) {
  TextTable table({"DEVICE", "NAME"});
  table.keep_whole(0);
  table.add_row({"opencl:cpu:0.15", "Intel Xeon Processor"});
  for (std::size_t width : {12u, 20u}) {
    std::string text = table.render("  ", width);
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      std::string line = text.substr(start, end - start);
      std::size_t columns = 0;
      for (char c : line) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      EXPECT_LE(columns, width) << line;
    }
  }
}

}  // namespace
}  // namespace dlpack_usm::report
