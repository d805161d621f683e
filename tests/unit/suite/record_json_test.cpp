// The one codec of a case's record: the shape a report holds, the shape a
// worker sends, and what each reader takes for granted.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "suite/model/record_json.hpp"

namespace dlpack_usm::suite {
namespace {

using nlohmann::json;

const JsonInput kInput{"report merge", "r.json", "give it a report"};

RecordedCase read(const json& entry, RecordSource source) {
  return record_from_json(JsonFields(kInput, entry, "/results/0"), source);
}

// What a /2 report held for a cell of the consumer matrix.
json second_schema_consumer_entry() {
  return {{"id", "consumer/opencl:cpu:0/device/dtype-bool"},
          {"source", "consumer"},
          {"device", "opencl:cpu:0"},
          {"outcome", "not_supported"},
          {"verdict", "ok"},
          {"message", "declined (no bool)"},
          {"rule_ids", json::array()},
          {"rules", json::array()},
          {"findings", json::array()},
          {"duration_ms", 1.5},
          {"attempts", 1},
          {"first_outcome", nullptr},
          {"repro", "dlpack-usm check"},
          {"file", nullptr},
          {"profile",
           {{"axis", "dtype"}, {"value", "bool"}, {"outcome", "declined"}, {"reason", "no bool"}}}};
}

TEST(RecordJson, AWorkerSendsTheResultAloneInTheReportsOrder) {
  CaseResult result{"producer/x", Outcome::pass, "fine"};
  result.exchange = ExchangeOutcome::emitted;
  nlohmann::ordered_json line = result_record_to_json(result);
  EXPECT_FALSE(line.contains("source"));
  EXPECT_FALSE(line.contains("place"));
  EXPECT_FALSE(line.contains("worker"));
  EXPECT_EQ(line["exchange"], "emitted");
  EXPECT_EQ(line.begin().key(), "id");
}

TEST(RecordJson, AWorkersLineNeedsItsIdAndOutcomeAlone) {
  json line = {{"id", "a"},
               {"outcome", "fail"},
               {"findings", {{{"rule_id", "DLP-STRIDES-NULL"}, {"message", "NULL"}}}}};
  RecordedCase recorded = read(line, RecordSource::worker);
  EXPECT_EQ(recorded.result.outcome, Outcome::fail);
  // Weighed by this binary's catalog, and its rule id recorded.
  ASSERT_EQ(recorded.result.findings.size(), 1u);
  EXPECT_EQ(recorded.result.findings[0].severity, rules::Severity::error);
  EXPECT_EQ(recorded.result.rule_ids, std::vector<std::string>{"DLP-STRIDES-NULL"});
  EXPECT_THROW(read({{"id", "a"}}, RecordSource::worker), Error);
}

TEST(RecordJson, ASecondSchemaConsumerCellHasItsPlaceAndClassFromItsProfile) {
  RecordedCase recorded = read(second_schema_consumer_entry(), RecordSource::report);
  EXPECT_EQ(recorded.spec.place.direction, Direction::consumer);
  ASSERT_EQ(recorded.spec.place.lines.size(), 1u);
  EXPECT_EQ(recorded.spec.place.lines[0], (MatrixLine{"dtype", "bool"}));
  EXPECT_EQ(recorded.result.exchange, ExchangeOutcome::declined);
  EXPECT_EQ(recorded.result.decline_reason, "no bool");
}

TEST(RecordJson, ARecordWrittenIsReadBackAndWrittenAlike) {
  RecordedCase recorded = read(second_schema_consumer_entry(), RecordSource::report);
  nlohmann::ordered_json written = record_to_json(recorded);
  EXPECT_EQ(written["profile"]["outcome"], "declined");
  EXPECT_EQ(written["place"]["lines"][0]["axis"], "dtype");
  EXPECT_TRUE(written["place"]["off_line"].is_null());
  RecordedCase again = read(json(written), RecordSource::report);
  EXPECT_EQ(again.spec.place, recorded.spec.place);
  EXPECT_EQ(record_to_json(again), written);
}

TEST(RecordJson, ANameNoOutcomeHasIsAUsageErrorAtItsPointer) {
  json entry(record_to_json(read(second_schema_consumer_entry(), RecordSource::report)));
  entry["exchange"] = "delighted";
  try {
    read(entry, RecordSource::report);
    FAIL() << "read an unknown exchange";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
    EXPECT_NE(std::string(error.what()).find("r.json: /results/0/exchange is \"delighted\""),
              std::string::npos)
        << error.what();
  }
  entry["exchange"] = nullptr;
  entry["place"]["direction"] = "";
  EXPECT_THROW(read(entry, RecordSource::report), Error);
}

}  // namespace
}  // namespace dlpack_usm::suite
