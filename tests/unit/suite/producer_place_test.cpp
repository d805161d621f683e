// Where the producer cases sit in the compatibility matrix, as they are
// planned, and what a result says the library did.
#include <gtest/gtest.h>

#include "rules/rule_ids.hpp"
#include "suite/cases/producer/producer_place.hpp"

namespace dlpack_usm::suite {
namespace {

TEST(ProducerPlace, TheBaseTensorLiesOnThreeLinesAndOthersOnTheirs) {
  CasePlace base = tensor_place({facts::UsmKind::device, "float32", "C", "1.3", false});
  EXPECT_EQ(base.direction, Direction::producer);
  EXPECT_EQ(base.memory, "device-usm");
  EXPECT_EQ(base.lines, (std::vector<MatrixLine>{
                            {"version", "1.3"}, {"dtype", "float32"}, {"layout", "c-order"}}));
  EXPECT_FALSE(base.off_line);
  EXPECT_EQ(tensor_place({facts::UsmKind::host, "int8", "C", "1.3", false}).lines,
            (std::vector<MatrixLine>{{"dtype", "int8"}}));
  EXPECT_EQ(tensor_place({facts::UsmKind::host, "float32", "negative", "1.3", false}).lines,
            (std::vector<MatrixLine>{{"layout", "negative-stride"}}));
  EXPECT_EQ(tensor_place({facts::UsmKind::host, "float32", "C", "0.8", true}).lines,
            (std::vector<MatrixLine>{{"read-only", "0.8"}}));
}

TEST(ProducerPlace, ACrossedTensorHasOnlyItsOwnRow) {
  CasePlace crossed = tensor_place({facts::UsmKind::shared, "int8", "F", "1.0", true});
  EXPECT_TRUE(crossed.lines.empty());
  ASSERT_TRUE(crossed.off_line);
  EXPECT_EQ(*crossed.off_line, (MatrixLine{"combined", "int8/f-order/1.0/read-only"}));
}

TEST(ProducerPlace, TheOtherCasesHaveALineOfTheirOwn) {
  EXPECT_EQ(lifetime_place({facts::UsmKind::host, "float32", "C", "0.8", false}).lines,
            (std::vector<MatrixLine>{{"lifetime", "0.8"}}));
  EXPECT_EQ(stream_place(facts::UsmKind::shared).memory, "shared-usm");
  CasePlace missing = missing_memory_place("usm");
  EXPECT_EQ(missing.memory, "usm");
  EXPECT_EQ(missing.lines, (std::vector<MatrixLine>{{"memory", "usm"}}));
  EXPECT_EQ(exchange_api_place("cube").lines, (std::vector<MatrixLine>{{"exchange-api", "cube"}}));
}

TEST(ProducerPlace, TheResultSaysWhatTheLibraryDid) {
  CaseResult result{"p", Outcome::warn, "fine"};
  EXPECT_EQ(judged_producer_exchange(result), ExchangeOutcome::emitted);
  result.outcome = Outcome::fail;
  result.add_finding({"DLP-PRODUCER-CONTENT", rules::Severity::error, "differs"});
  EXPECT_EQ(judged_producer_exchange(result), ExchangeOutcome::emitted_invalid);
  CaseResult status{"p", Outcome::fail, ""};
  status.add_finding({std::string(rules::ids::kPluginStatus), rules::Severity::error, "-7"});
  EXPECT_EQ(judged_producer_exchange(status), ExchangeOutcome::wrong);
  EXPECT_EQ(judged_producer_exchange({"p", Outcome::not_supported, "no mallinfo2"}),
            ExchangeOutcome::not_applicable);
  EXPECT_EQ(judged_producer_exchange({"p", Outcome::crash, "died"}), ExchangeOutcome::none);
}

}  // namespace
}  // namespace dlpack_usm::suite
