// The readers of `report matrix`: each kind of report (profile, consume,
// check) becomes cells of the contract, completed from the cases' results;
// the cases of a check report land where their records place them;
// anything else is refused naming the file and what it is.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/json_fields.hpp"
#include "compat/check_input.hpp"
#include "compat/matrix_inputs.hpp"

namespace dlpack_usm::compat {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) {
  return (fs::path(DLPACK_USM_SOURCE_DIR) / "tests" / "data" / "matrix" / name).string();
}

const ProfileCell* find(const LibraryProfile& profile, const std::string& direction,
                        const std::string& axis, const std::string& value,
                        const std::string& memory = "") {
  for (const ProfileCell& cell : profile.cells) {
    if (cell.direction == direction && cell.axis == axis && cell.value == value &&
        (memory.empty() || cell.memory == memory)) {
      return &cell;
    }
  }
  return nullptr;
}

// The message of the usage error `read` throws.
template <typename Read>
std::string usage_error(Read read) {
  try {
    read();
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
    return error.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(MatrixInputs, AProfileReportGivesBothDirectionsCompletedFromItsResults) {
  std::vector<LibraryProfile> profiles = read_matrix_input(data("profile-tinyarray.json"));
  ASSERT_EQ(profiles.size(), 1u);
  const LibraryProfile& tiny = profiles[0];
  EXPECT_EQ(tiny.library, "tinyarray");
  EXPECT_EQ(tiny.version, "1.2");
  EXPECT_EQ(tiny.machine, "ci");
  EXPECT_EQ(tiny.measured, "2026-11-26");  // the day of its started_at
  EXPECT_EQ(tiny.kind, "profile report");
  EXPECT_EQ(tiny.cells.size(), 11u);
  // The worst finding (the error, not the warning before it).
  const ProfileCell* f_order = find(tiny, "producer", "layout", "f-order");
  ASSERT_TRUE(f_order);
  EXPECT_EQ(f_order->rule, "DLP-PRODUCER-CONTENT");
  EXPECT_EQ(f_order->memory, "");  // the device says: host
  // Consumer entries: memory from the result, the value without it, a repro.
  const ProfileCell* version = find(tiny, "consumer", "version", "1.0", "host-usm");
  ASSERT_TRUE(version);
  EXPECT_EQ(version->repro,
            "python3 -m dlpack_usm consume tinyarray.from_dlpack --device opencl:cpu:0 "
            "--cell version-1.0");
  const ProfileCell* declined = find(tiny, "consumer", "dtype", "int8", "device-usm");
  ASSERT_TRUE(declined);
  EXPECT_EQ(declined->rule, "DLP-PY-DECLINE-DEVICE-EXCEPTION");
  EXPECT_EQ(declined->status, "warn");
}

TEST(MatrixInputs, AConsumeReportIsItsConsumersLibraryWithThePackagesVersion) {
  std::vector<LibraryProfile> profiles = read_matrix_input(data("consume-otherlib.json"));
  ASSERT_EQ(profiles.size(), 1u);
  EXPECT_EQ(profiles[0].library, "otherlib");
  EXPECT_EQ(profiles[0].version, "0.9");
  EXPECT_EQ(profiles[0].kind, "consume report");
  const ProfileCell* crash = find(profiles[0], "consumer", "dtype", "int8", "device-usm");
  ASSERT_TRUE(crash);
  EXPECT_EQ(crash->outcome, "crash");
  EXPECT_EQ(crash->rule, "DLP-PLUGIN-CRASH");
  EXPECT_EQ(crash->message,
            "rule DLP-PLUGIN-CRASH: on a valid tensor: the consumer crashed (SIGSEGV)");
}

TEST(MatrixInputs, TheCommittedConsumerProfilesReadAsConsumeReports) {
  for (const auto& entry :
       fs::directory_iterator(std::string(DLPACK_USM_SOURCE_DIR) + "/fixtures/consumer_profiles")) {
    SCOPED_TRACE(entry.path().string());
    std::vector<LibraryProfile> profiles = read_matrix_input(entry.path());
    ASSERT_EQ(profiles.size(), 1u);
    EXPECT_FALSE(profiles[0].version.empty());
    EXPECT_GT(profiles[0].cells.size(), 100u);
    for (const ProfileCell& cell : profiles[0].cells) {
      EXPECT_FALSE(cell.memory.empty()) << cell.case_id;
      // The stream case's memory on cuda:N is CUDA memory, not USM.
      EXPECT_EQ(cell.device.starts_with("cuda"), cell.memory.starts_with("cuda")) << cell.case_id;
      // "1.0/host-usm" of the versions axis is 1.0 in a row of USM host memory.
      EXPECT_TRUE(cell.axis == "usm-kind" || !cell.value.ends_with("-usm")) << cell.value;
    }
  }
}

TEST(MatrixInputs, ACheckReportOfAConsumerGivesItsProfileWithFindingsAndRepros) {
  std::vector<LibraryProfile> profiles = read_matrix_input(data("check-consumer.json"));
  ASSERT_EQ(profiles.size(), 1u);
  EXPECT_EQ(profiles[0].library, "fixture-consumer");
  EXPECT_EQ(profiles[0].kind, "check report");
  EXPECT_EQ(profiles[0].cells.size(), 4u);
  const ProfileCell* host = find(profiles[0], "consumer", "version", "1.0", "host-usm");
  ASSERT_TRUE(host);
  EXPECT_NE(host->repro.find("dlpack-usm check --consumer"), std::string::npos);
  // An invalid tensor is offered in memory too: the record says which.
  const ProfileCell* invalid = find(profiles[0], "consumer", "invalid", "shape-negative");
  ASSERT_TRUE(invalid);
  EXPECT_EQ(invalid->memory, "device-usm");
  EXPECT_EQ(invalid->outcome, "refused");
}

TEST(MatrixInputs, ACheckReportOfAProducerPutsItsCasesOnTheLinesOfTheMatrix) {
  std::vector<LibraryProfile> profiles = read_matrix_input(data("check-producer.json"));
  ASSERT_EQ(profiles.size(), 1u);
  const LibraryProfile& producer = profiles[0];
  EXPECT_EQ(producer.library, "fixture-producer");
  // float32/C/1.3 lies on three lines.
  for (const auto& [axis, value] : std::vector<std::pair<std::string, std::string>>{
           {"version", "1.3"}, {"dtype", "float32"}, {"layout", "c-order"}}) {
    const ProfileCell* base = find(producer, "producer", axis, value, "device-usm");
    ASSERT_TRUE(base) << axis;
    EXPECT_EQ(base->outcome, "emitted");
    EXPECT_EQ(base->case_id, "producer/opencl:cpu:0/device/float32/C/1.3");
  }
  EXPECT_TRUE(find(producer, "producer", "dtype", "int8"));
  EXPECT_TRUE(find(producer, "producer", "layout", "f-order"));
  EXPECT_TRUE(find(producer, "producer", "lifetime", "1.3"));
  // The library declines READ_ONLY below 1.0, as it should: refused, passing.
  const ProfileCell* read_only = find(producer, "producer", "read-only", "0.8");
  ASSERT_TRUE(read_only);
  EXPECT_EQ(read_only->outcome, "refused");
  EXPECT_EQ(read_only->status, "pass");
  // Off the lines: a passing case is left out, a failing one is a cell.
  EXPECT_FALSE(find(producer, "producer", "combined", "int8/f-order/0.8"));
  const ProfileCell* combined = find(producer, "producer", "combined", "int8/f-order/1.0");
  ASSERT_TRUE(combined);
  EXPECT_EQ(combined->outcome, "emitted-invalid");
  EXPECT_EQ(combined->rule, "DLP-PRODUCER-CONTENT");
  // A device without USM: not applicable, on its own device.
  const ProfileCell* no_usm = find(producer, "producer", "memory", "usm");
  ASSERT_TRUE(no_usm);
  EXPECT_EQ(no_usm->outcome, "not-applicable");
  EXPECT_EQ(no_usm->device, "opencl:cpu:1");
}

class MatrixBadInputs : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    fs::path path = fs::temp_directory_path() / fmt::format("matrix-input-{}-{}", getpid(), name);
    std::ofstream(path) << text;
    written_.push_back(path);
    return path.string();
  }
  void TearDown() override {
    for (const fs::path& path : written_) fs::remove(path);
  }

 private:
  std::vector<fs::path> written_;
};

TEST_F(MatrixBadInputs, OtherDocumentsAreRefusedNamingTheFileAndWhatTheyAre) {
  struct Case {
    std::string text, says;
  };
  for (const Case& bad : std::vector<Case>{
           {R"([{"dl_tensor": {}}])", "a JSON array (a capsule file of several tensors?)"},
           {R"({"schema": "dlpack-usm.findings/9"})", "\"dlpack-usm.findings/9\""},
           {R"({"tool": {}, "root_device_count": 1})", "a device inventory"},
           {R"({"rules": []})", "a rule catalog"},
           {R"({"a": 1})", "without a \"schema\" member"},
           {"{\"a\": ", ": byte "},
           {"\"text\"", "JSON a string"}}) {
    SCOPED_TRACE(bad.text);
    std::string path = write("other.json", bad.text);
    std::string message = usage_error([&path] { read_matrix_input(path); });
    EXPECT_NE(message.find("report matrix: " + path + ": "), std::string::npos) << message;
    EXPECT_NE(message.find(bad.says), std::string::npos) << message;
  }
}

TEST_F(MatrixBadInputs, MembersOfTheWrongTypeAreNamedByTheirPointer) {
  std::string path =
      write("wrong.json",
            R"({"schema": "dlpack-usm.consume-report/1", "consumer": "x.from_dlpack", "profile": [)"
            R"({"device": "cpu", "axis": "dtype", "value": 3, "outcome": "accepted"}]})");
  std::string message = usage_error([&path] { read_matrix_input(path); });
  EXPECT_NE(message.find("/profile/0/value is a number, not a string"), std::string::npos)
      << message;
  std::string direction =
      write("direction.json",
            R"({"schema": "dlpack-usm.consume-report/1", "consumer": "x.from_dlpack", "profile": [)"
            R"({"direction": "sideways", "device": "cpu", "axis": "dtype", "value": "x",)"
            R"( "outcome": "accepted"}]})");
  message = usage_error([&direction] { read_matrix_input(direction); });
  EXPECT_NE(message.find("/profile/0/direction is \"sideways\", not producer or consumer"),
            std::string::npos)
      << message;
}

TEST_F(MatrixBadInputs, ACheckReportWithoutALibraryUnderTestMeasuresNone) {
  std::string path =
      write("check.json", R"({"schema": "dlpack-usm.report/3", "plugins": [], "results": []})");
  std::string message = usage_error([&path] { read_matrix_input(path); });
  EXPECT_NE(message.find("with no library under test"), std::string::npos) << message;
}

// Before /3 a case's place was in its id alone, which nothing reads.
TEST_F(MatrixBadInputs, ACheckReportOlderThanThePlacesIsRefusedWithWhatToDo) {
  for (const char* schema : {"dlpack-usm.report/1", "dlpack-usm.report/2"}) {
    std::string path = write(
        "old.json", fmt::format(R"({{"schema": "{}", "plugins": [], "results": []}})", schema));
    std::string message = usage_error([&path] { read_matrix_input(path); });
    EXPECT_NE(message.find(fmt::format("a check report of schema {}, written by an older", schema)),
              std::string::npos)
        << message;
  }
}

// A record's cells are its place's lines; a crossed tensor off them is on
// its own row only where it does not pass; a case without an exchange (it
// never ran) is on none.
TEST(MatrixInputs, ARecordIsACellOnEachLineOfItsPlace) {
  suite::RecordedCase recorded;
  recorded.spec.device = "opencl:cpu:0";
  recorded.spec.place = {
      suite::Direction::consumer, "shared-usm", {{"version", "1.0/shared-usm"}}, std::nullopt};
  recorded.result = suite::CaseResult("c", suite::Outcome::not_supported, "declined (no)");
  recorded.result.exchange = suite::ExchangeOutcome::declined;
  recorded.result.decline_reason = "no";
  std::vector<ProfileCell> cells = record_cells(recorded);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "1.0");  // the memory is a row of its own
  EXPECT_EQ(cells[0].memory, "shared-usm");
  EXPECT_EQ(cells[0].outcome, "declined");
  EXPECT_EQ(cells[0].reason, "no");
  recorded.spec.place = {suite::Direction::producer,
                         "host-usm",
                         {},
                         suite::MatrixLine{"combined", "int8/f-order/0.8"}};
  recorded.result = suite::CaseResult("p", suite::Outcome::pass, "fine");
  recorded.result.exchange = suite::ExchangeOutcome::emitted;
  EXPECT_TRUE(record_cells(recorded).empty());
  recorded.result.outcome = suite::Outcome::fail;
  recorded.result.exchange = suite::ExchangeOutcome::emitted_invalid;
  ASSERT_EQ(record_cells(recorded).size(), 1u);
  EXPECT_EQ(record_cells(recorded)[0].axis, "combined");
  recorded.result.exchange = suite::ExchangeOutcome::none;
  EXPECT_TRUE(record_cells(recorded).empty());
}

}  // namespace
}  // namespace dlpack_usm::compat
