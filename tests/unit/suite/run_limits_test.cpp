// The limits that turn cases away: --max-failures counts regressions only,
// --max-consecutive-hangs counts a library's hangs and crashes in a row.
#include <gtest/gtest.h>

#include "rules/rule_ids.hpp"
#include "suite/gate/run_limits.hpp"

namespace dlpack_usm::suite {
namespace {

namespace ids = rules::ids;

CaseSpec library_case(const std::string& name, const std::string& source = "consumer") {
  CaseSpec spec{source + "/opencl:cpu:0/" + name, source, "opencl:cpu:0", {}, nullptr};
  spec.crash_rule = std::string(ids::kPluginCrash);
  spec.timeout_rule = std::string(ids::kPluginHang);
  return spec;
}

RecordedCase finished(CaseSpec spec, Outcome outcome, Verdict verdict = Verdict::ok) {
  CaseResult result{spec.id, outcome, "what happened"};
  result.verdict = verdict;
  return {std::move(spec), std::move(result), "repro"};
}

CheckOptions with_libraries() {
  CheckOptions options;
  options.plugins = {{plugin::Role::producer, "/libs/libproducer.so", ""},
                     {plugin::Role::consumer, "/libs/libconsumer.so", ""}};
  return options;
}

TEST(RunLimits, MaxFailuresCountsRegressionsOnly) {
  CheckOptions options;
  options.max_failures = 2;
  RunLimits limits(options);
  CaseSpec vector{"vector/shape/a", "vector", "", {}, nullptr};
  EXPECT_TRUE(limits.count(finished(vector, Outcome::fail, Verdict::expected_failure)).empty());
  EXPECT_TRUE(limits.count(finished(vector, Outcome::timeout, Verdict::flaky)).empty());
  EXPECT_TRUE(limits.count(finished(vector, Outcome::not_run, Verdict::regression)).empty());
  EXPECT_TRUE(limits.count(finished(vector, Outcome::pass, Verdict::unexpected_pass)).empty());
  EXPECT_TRUE(limits.count(finished(vector, Outcome::crash, Verdict::regression)).empty());
  EXPECT_FALSE(limits.skip_reason(vector));
  std::vector<std::string> reached =
      limits.count(finished(vector, Outcome::fail, Verdict::regression));
  ASSERT_EQ(reached.size(), 1u);
  EXPECT_EQ(reached[0], "the run stopped after 2 failures (--max-failures 2)");
  // A reason turned no case away yet: the run may have had no case left.
  EXPECT_TRUE(limits.reasons().empty());
  EXPECT_EQ(limits.skip_reason(library_case("any")), reached[0]);
  EXPECT_EQ(limits.skip_reason(vector), reached[0]);
  // Reached once: later failures (finished while it stopped) add nothing.
  EXPECT_TRUE(limits.count(finished(vector, Outcome::fail, Verdict::regression)).empty());
  EXPECT_EQ(limits.reasons(), reached);
}

TEST(RunLimits, ZeroMaxFailuresNeverStops) {
  CheckOptions options;
  options.max_consecutive_hangs = 0;
  RunLimits limits(options);
  for (int i = 0; i < 100; ++i) {
    limits.count(finished(library_case(std::to_string(i)), Outcome::fail, Verdict::regression));
  }
  EXPECT_TRUE(limits.reasons().empty());
}

TEST(RunLimits, ALibraryThatHangsInARowIsNotTestedFurther) {
  CheckOptions options = with_libraries();
  options.max_consecutive_hangs = 3;
  RunLimits limits(options);
  limits.count(finished(library_case("a"), Outcome::timeout, Verdict::regression));
  limits.count(finished(library_case("b"), Outcome::crash, Verdict::regression));
  // A case it finished breaks the streak; a case turned away does not.
  limits.count(finished(library_case("c"), Outcome::not_supported));
  limits.count(finished(library_case("d"), Outcome::timeout, Verdict::regression));
  limits.count(finished(library_case("e"), Outcome::not_run, Verdict::regression));
  // A hang on an invalid tensor warns (the runner charged its hang rule).
  RecordedCase warned = finished(library_case("f"), Outcome::warn);
  warned.spec.timeout_rule = std::string(ids::kPluginHangInvalid);
  warned.result.add_finding({warned.spec.timeout_rule, rules::Severity::warning, "hung"});
  EXPECT_TRUE(limits.count(warned).empty());
  std::vector<std::string> reached =
      limits.count(finished(library_case("g"), Outcome::timeout, Verdict::expected_failure));
  ASSERT_EQ(reached.size(), 1u);
  EXPECT_EQ(reached[0],
            "the consumer libconsumer.so hung or crashed on 3 consecutive cases; not tested "
            "further (--max-consecutive-hangs 3)");
  EXPECT_EQ(limits.skip_reason(library_case("h")), reached[0]);
  // The other library and the cases of no library go on.
  EXPECT_FALSE(limits.skip_reason(library_case("a", "producer")));
  EXPECT_FALSE(limits.skip_reason(library_case("a", "exchange-api")));
  EXPECT_FALSE(limits.skip_reason(CaseSpec{"runtime/x", "runtime", "", {}, nullptr}));
}

TEST(RunLimits, TheCasesOfOneSetupGroupThatCrashedTogetherCountOnce) {
  CheckOptions options = with_libraries();
  options.max_consecutive_hangs = 2;
  RunLimits limits(options);
  auto in_group = [](const std::string& name, const std::string& group) {
    CaseSpec spec = library_case(name);
    spec.setup_group = group;
    return spec;
  };
  // One crash while the cell was made, charged to its three requests.
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_TRUE(
        limits.count(finished(in_group(name, "cell-1"), Outcome::crash, Verdict::regression))
            .empty());
  }
  EXPECT_FALSE(limits.skip_reason(in_group("d", "cell-2")));
  // The next cell's crash is the second in a row.
  std::vector<std::string> reached =
      limits.count(finished(in_group("d", "cell-2"), Outcome::crash, Verdict::regression));
  ASSERT_EQ(reached.size(), 1u);
  EXPECT_NE(reached[0].find("on 2 consecutive cases"), std::string::npos);
}

TEST(RunLimits, TheExchangeApiCasesAreTheProducers) {
  CheckOptions options = with_libraries();
  options.max_consecutive_hangs = 2;
  RunLimits limits(options);
  limits.count(finished(library_case("a", "producer"), Outcome::crash, Verdict::regression));
  limits.count(finished(library_case("b", "exchange-api"), Outcome::crash, Verdict::regression));
  EXPECT_TRUE(limits.skip_reason(library_case("c", "producer")));
  EXPECT_FALSE(limits.skip_reason(library_case("c", "consumer")));
}

TEST(RunLimits, HangsOfCasesOfNoLibraryAreNotCounted) {
  CheckOptions options = with_libraries();
  options.max_consecutive_hangs = 1;
  RunLimits limits(options);
  // A live case's crash is the tool's own: it names no crash rule.
  CaseSpec live{"live/opencl:cpu:0/x", "live", "opencl:cpu:0", {}, nullptr};
  EXPECT_TRUE(limits.count(finished(live, Outcome::crash, Verdict::regression)).empty());
  EXPECT_FALSE(limits.skip_reason(live));
}

}  // namespace
}  // namespace dlpack_usm::suite
