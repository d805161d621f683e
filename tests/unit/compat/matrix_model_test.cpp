// The compatibility matrix's model: where a cell's memory lines up across
// machines, how the inputs of one library share a column, which rows agree,
// the order of rows, and the notes the text and Markdown renderings number.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "compat/matrix_model.hpp"
#include "compat/matrix_notes.hpp"
#include "compat/matrix_outcomes.hpp"

namespace dlpack_usm::compat {
namespace {

ProfileCell cell(std::string direction, std::string device, std::string memory, std::string axis,
                 std::string value, std::string outcome, std::string status) {
  ProfileCell made;
  made.direction = std::move(direction);
  made.device = std::move(device);
  made.memory = std::move(memory);
  made.axis = std::move(axis);
  made.value = std::move(value);
  made.outcome = std::move(outcome);
  made.status = std::move(status);
  return made;
}

LibraryProfile library(std::string name, std::string version, std::vector<ProfileCell> cells) {
  return {name + ".json",
          "profile report",
          name,
          std::move(version),
          "",
          "",
          std::move(cells),
          false,
          {}};
}

TEST(MatrixPlace, DevicesOfDifferentMachinesLineUpByMemoryKind) {
  EXPECT_EQ(place_of(cell("consumer", "cpu", "cpu", "dtype", "int8", "accepted", "pass")).label,
            "host");
  EXPECT_EQ(place_of(cell("consumer", "opencl:cpu:0", "device-usm", "", "", "", "")).label,
            "USM device");
  EXPECT_EQ(place_of(cell("consumer", "level_zero:gpu:0", "host-usm", "", "", "", "")).label,
            "USM host");
  EXPECT_EQ(place_of(cell("consumer", "opencl:cpu:1", "shared-usm", "", "", "", "")).label,
            "USM shared #1");
  EXPECT_EQ(place_of(cell("producer", "opencl:cpu:0.1", "device-usm", "", "", "", "")).label,
            "USM device #0.1");
  EXPECT_EQ(place_of(cell("producer", "cuda:0", "cuda", "", "", "", "")).label, "CUDA device");
  EXPECT_EQ(place_of(cell("producer", "cuda:1", "cuda-managed", "", "", "", "")).label,
            "CUDA managed #1");
  // Without a memory, the device decides; an unknown memory keeps its name, last.
  EXPECT_EQ(place_of(cell("producer", "cuda:0", "", "", "", "", "")).label, "CUDA device");
  EXPECT_EQ(place_of(cell("producer", "opencl:gpu:0", "", "", "", "", "")).label, "USM device");
  Place odd = place_of(cell("producer", "cpu", "mmap", "", "", "", ""));
  EXPECT_EQ(odd.label, "mmap");
  EXPECT_GT(odd.order, place_of(cell("producer", "cuda:0", "cuda-managed", "", "", "", "")).order);
}

TEST(MatrixModel, ColumnsAreSortedAndInputsOfOneLibraryShareOneWhereTheWorseCellStands) {
  std::vector<LibraryProfile> profiles{
      library("torch", "2.11",
              {cell("consumer", "cpu", "cpu", "dtype", "int8", "accepted", "pass")}),
      library("numpy", "2.4",
              {cell("consumer", "cpu", "cpu", "dtype", "int8", "accepted", "pass")}),
      library("torch", "2.11",
              {cell("consumer", "cpu", "cpu", "dtype", "int8", "crash", "fail"),
               cell("consumer", "opencl:cpu:1", "device-usm", "dtype", "int8", "declined",
                    "not_supported")})};
  CompatibilityMatrix matrix = build_matrix(profiles);
  ASSERT_EQ(matrix.columns.size(), 2u);
  EXPECT_EQ(matrix.columns[0].title(), "numpy 2.4");
  EXPECT_EQ(matrix.columns[1].title(), "torch 2.11");
  EXPECT_EQ(matrix.columns[1].files.size(), 2u);
  ASSERT_EQ(matrix.rows.size(), 2u);
  EXPECT_EQ(matrix.rows[0].place, "host");
  ASSERT_TRUE(matrix.rows[0].cells[1]);
  EXPECT_EQ(matrix.rows[0].cells[1]->outcome, "crash");
  // numpy never measured the second device: no cell, and no agreement.
  EXPECT_EQ(matrix.rows[1].place, "USM device #1");
  EXPECT_FALSE(matrix.rows[1].cells[0]);
  EXPECT_FALSE(matrix.rows[1].agrees());
}

TEST(MatrixModel, RowsGoByDirectionAxisMemoryThenValueAsTheInputsListThem) {
  std::vector<LibraryProfile> profiles{
      library("lib", "1",
              {cell("consumer", "cpu", "cpu", "dtype", "int16", "accepted", "pass"),
               cell("consumer", "cpu", "cpu", "dtype", "int8", "accepted", "pass"),
               cell("consumer", "opencl:cpu:0", "device-usm", "dtype", "int16", "declined", "warn"),
               cell("consumer", "cpu", "cpu", "version", "1.0", "accepted", "pass"),
               cell("producer", "cpu", "cpu", "layout", "c-order", "emitted", "pass"),
               cell("producer", "cpu", "cpu", "brand-new-axis", "x", "emitted", "pass")})};
  CompatibilityMatrix matrix = build_matrix(profiles);
  std::vector<std::string> order;
  for (const MatrixRow& row : matrix.rows) {
    order.push_back(row.direction + " " + row.axis + " " + row.place + " " + row.value);
  }
  EXPECT_EQ(order, (std::vector<std::string>{
                       "producer layout host c-order", "producer brand-new-axis host x",
                       "consumer version host 1.0", "consumer dtype host int16",
                       "consumer dtype host int8", "consumer dtype USM device int16"}));
}

TEST(MatrixModel, RowsAgreeOnOutcomeAndGateAndFoldOnlyWithTwoLibraries) {
  ProfileCell declined =
      cell("consumer", "cpu", "cpu", "dtype", "bool", "declined", "not_supported");
  ProfileCell declined_warns = declined;
  declined_warns.status = "warn";
  CompatibilityMatrix one = build_matrix({library("a", "1", {declined})});
  EXPECT_TRUE(one.rows[0].agrees());
  EXPECT_EQ(one.folded_rows(), 0u);
  CompatibilityMatrix same =
      build_matrix({library("a", "1", {declined}), library("b", "1", {declined})});
  EXPECT_EQ(same.folded_rows(), 1u);
  CompatibilityMatrix differ =
      build_matrix({library("a", "1", {declined}), library("b", "1", {declined_warns})});
  EXPECT_EQ(differ.folded_rows(), 0u);
}

TEST(MatrixOutcomes, EveryOutcomeHasItsOwnSymbolAndColourAndConsumerSymbolsMatchTheProfile) {
  const auto& outcomes = matrix_outcomes();
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    SCOPED_TRACE(outcomes[i].name);
    EXPECT_FALSE(outcomes[i].consumer_meaning.empty() && outcomes[i].producer_meaning.empty());
    for (std::size_t k = i + 1; k < outcomes.size(); ++k) {
      EXPECT_NE(outcomes[i].symbol, outcomes[k].symbol) << outcomes[k].name;
      EXPECT_NE(outcomes[i].background, outcomes[k].background) << outcomes[k].name;
    }
  }
  // The capability profile of `check --consumer` prints these symbols.
  EXPECT_EQ(matrix_outcome("accepted").symbol, '+');
  EXPECT_EQ(matrix_outcome("declined").symbol, '-');
  EXPECT_EQ(matrix_outcome("crash").symbol, 'C');
  EXPECT_EQ(matrix_outcome("something-new").symbol, '?');
}

TEST(MatrixOutcomes, ColoursKeepAContrastOfSevenToOne) {
  auto luminance = [](const std::string& hex) {
    double sum = 0;
    const double weights[] = {0.2126, 0.7152, 0.0722};
    for (int i = 0; i < 3; ++i) {
      double c = std::stoi(hex.substr(1 + 2 * i, 2), nullptr, 16) / 255.0;
      c = c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
      sum += weights[i] * c;
    }
    return sum;
  };
  for (const MatrixOutcome& outcome : matrix_outcomes()) {
    double light = luminance(outcome.background), dark = luminance(outcome.foreground);
    EXPECT_GE((light + 0.05) / (dark + 0.05), 7.0) << outcome.name;
  }
}

TEST(MatrixCells, MarkAndNoteSayOutcomeGateReasonAndWorstFinding) {
  ProfileCell declined =
      cell("consumer", "opencl:cpu:0", "device-usm", "dtype", "int8", "declined", "warn");
  declined.reason = "RuntimeError (Unsupported device in DLTensor.)";
  declined.exception = "RuntimeError";
  declined.rule = "DLP-PY-DECLINE-DEVICE-EXCEPTION";
  declined.message = "rule DLP-PY-DECLINE-DEVICE-EXCEPTION: declined with RuntimeError";
  EXPECT_EQ(cell_mark(declined), "-!");
  EXPECT_EQ(cell_note(declined),
            "declined (warn): RuntimeError (Unsupported device in DLTensor.); "
            "DLP-PY-DECLINE-DEVICE-EXCEPTION: declined with RuntimeError");
  ProfileCell crash = cell("producer", "cuda:0", "cuda", "stream", "0", "crash", "crash");
  crash.exception = "SIGSEGV";
  EXPECT_EQ(cell_mark(crash), "C!!");
  EXPECT_EQ(cell_note(crash), "crash (crash): raised SIGSEGV");
}

TEST(MatrixNotes, CellsOfALibraryThatSayTheSameShareANoteAndPlainSuccessHasNone) {
  ProfileCell first =
      cell("consumer", "opencl:cpu:0", "device-usm", "dtype", "int8", "declined", "warn");
  first.reason = "RuntimeError (no USM)";
  first.repro = "repro one";
  ProfileCell second = first;
  second.value = "int16";
  second.repro = "repro two";
  ProfileCell accepted = cell("consumer", "cpu", "cpu", "dtype", "int8", "accepted", "pass");
  accepted.reason = "accepted with the right elements";
  MatrixNotes notes;
  EXPECT_EQ(notes.number(first, "lib 1"), 1u);
  EXPECT_EQ(notes.number(accepted, "lib 1"), 0u);
  EXPECT_EQ(notes.number(second, "lib 1"), 1u);
  EXPECT_EQ(notes.number(second, "lib 2"), 2u);
  ASSERT_EQ(notes.notes().size(), 2u);
  EXPECT_EQ(notes.notes()[0].cells, 2u);
  EXPECT_EQ(notes.notes()[0].repro, "repro one");
}

}  // namespace
}  // namespace dlpack_usm::compat
