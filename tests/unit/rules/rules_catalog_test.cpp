// The catalog as a whole: stable, well-formed ids and metadata, and the
// version gating of evaluate().
#include <gtest/gtest.h>

#include <cctype>
#include <regex>
#include <set>

#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using testing::clean_tensor;
using testing::fired_ids;
using testing::fires;

TEST(RuleCatalog, IdsAreUniqueAndWellFormed) {
  std::set<std::string_view> seen;
  const std::regex id_form("DLP-[A-Z0-9]+(-[A-Z0-9]+)*");
  for (const RuleInfo& rule : rule_catalog()) {
    EXPECT_TRUE(seen.insert(rule.id).second) << "duplicate id " << rule.id;
    EXPECT_TRUE(std::regex_match(std::string(rule.id), id_form)) << rule.id;
  }
  EXPECT_GE(seen.size(), 35u);
}

TEST(RuleCatalog, EveryRuleCarriesItsMetadata) {
  const std::set<std::string_view> families{
      "version", "flags",  "dtype", "shape",   "addressing", "alignment",    "device",
      "deleter", "oneapi", "cuda",  "runtime", "behaviour",  "exchange-api", "python"};
  for (const RuleInfo& rule : rule_catalog()) {
    EXPECT_TRUE(families.count(rule.family)) << rule.id << " family " << rule.family;
    EXPECT_FALSE(rule.title.empty()) << rule.id;
    EXPECT_FALSE(rule.reference.empty()) << rule.id;
    EXPECT_GT(rule.rationale.size(), 20u) << rule.id;
    // Only a heuristic may rest on no quoted sentence: a definition or a
    // convention is quoted as well as a word of the source.
    if (rule.normative != "heuristic") {
      EXPECT_FALSE(rule.quote.empty()) << rule.id;
    }
    if (rule.until) {
      EXPECT_LE(rule.since, *rule.until) << rule.id;
    }
    EXPECT_LE(rule.since, dlpack::kModelRelease) << rule.id;
  }
}

// A word the quote does not contain cannot be what the rule rests on.
bool quote_contains(std::string_view quote, std::string_view word) {
  std::string lower(quote);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find(word) != std::string::npos;
}

TEST(RuleCatalog, SeverityFollowsWhatTheRuleRestsOn) {
  for (const RuleInfo& rule : rule_catalog()) {
    std::optional<Strength> strength = strength_of(rule.normative);
    ASSERT_TRUE(strength) << rule.id << ": unknown normative word '" << rule.normative << "'";
    EXPECT_LE(rule.severity, highest_severity(*strength))
        << rule.id << " is " << to_string(rule.severity) << " but rests on '" << rule.normative
        << "'";
    if (is_quoted_word(rule.normative)) {
      EXPECT_TRUE(quote_contains(rule.quote, rule.normative))
          << rule.id << ": the quote does not say '" << rule.normative << "'";
    }
  }
}

TEST(RuleCatalog, StrengthsAllowTheSeveritiesOfTheModel) {
  EXPECT_EQ(highest_severity(Strength::must), Severity::error);
  EXPECT_EQ(highest_severity(Strength::definition), Severity::error);
  EXPECT_EQ(highest_severity(Strength::should), Severity::warning);
  EXPECT_EQ(highest_severity(Strength::convention), Severity::warning);
  EXPECT_EQ(highest_severity(Strength::may), Severity::info);
  EXPECT_EQ(highest_severity(Strength::heuristic), Severity::info);
  EXPECT_EQ(strength_of("definition"), Strength::definition);
  EXPECT_EQ(strength_of("convention"), Strength::convention);
  EXPECT_TRUE(is_quoted_word("can not"));
  EXPECT_FALSE(is_quoted_word("definition"));
}

// An error rests on a must-level word the quote says, or on the sentence
// defining the field whose domain the value lies outside of.
TEST(RuleCatalog, EveryErrorRestsOnAMustOrADefinition) {
  for (const RuleInfo& rule : rule_catalog()) {
    if (rule.severity != Severity::error) continue;
    std::optional<Strength> strength = strength_of(rule.normative);
    EXPECT_TRUE(strength == Strength::must || strength == Strength::definition) << rule.id;
    EXPECT_FALSE(rule.quote.empty()) << rule.id;
    if (strength == Strength::must) {
      EXPECT_TRUE(quote_contains(rule.quote, rule.normative)) << rule.id;
    }
  }
}

TEST(RuleCatalog, EveryHeuristicIsAnInfo) {
  for (const RuleInfo& rule : rule_catalog()) {
    if (rule.normative != "heuristic") continue;
    EXPECT_EQ(rule.severity, Severity::info) << rule.id;
  }
}

// A value outside what its own field's definition gives is malformed: each
// such rule is an error quoting the defining sentence (issue 22's list).
TEST(RuleCatalog, MalformedTensorsAreErrorsByDefinition) {
  for (const char* id : {"DLP-NDIM-NEGATIVE",
                         "DLP-SHAPE-NULL",
                         "DLP-SHAPE-NEGATIVE",
                         "DLP-DTYPE-BITS-ZERO",
                         "DLP-DTYPE-BITS-FIXED",
                         "DLP-DTYPE-LANES-ZERO",
                         "DLP-DTYPE-CODE-UNKNOWN",
                         "DLP-DTYPE-CODE-VERSION",
                         "DLP-DEVICE-TYPE-UNKNOWN",
                         "DLP-DEVICE-TYPE-VERSION",
                         "DLP-DEVICE-ID-NEGATIVE",
                         "DLP-DEVICE-ID-NOT-OWNER",
                         "DLP-DEVICE-TYPE-NOT-RUNTIME-MEMORY",
                         "DLP-DATA-NULL",
                         "DLP-EXTENT-OVERFLOW",
                         "DLP-EXTENT-OUTSIDE-ALLOCATION",
                         "DLP-STRIDES-UNSIGNED-DIVISION",
                         "DLP-ONEAPI-DEVICE-ID-RANGE",
                         "DLP-ONEAPI-DEVICE-ID-ROOT",
                         "DLP-ONEAPI-DEVICE-ID-SUB-DEVICE",
                         "DLP-CUDA-DEVICE-ID-RANGE",
                         "DLP-CUDA-DEVICE-ID",
                         "DLP-CUDA-POINTER-UNKNOWN",
                         "DLP-CUDA-HOST-MEMORY-TYPE",
                         "DLP-CUDA-MANAGED-MEMORY-TYPE"}) {
    const RuleInfo* rule = find_rule(id);
    ASSERT_NE(rule, nullptr) << id;
    EXPECT_EQ(rule->severity, Severity::error) << id;
    EXPECT_EQ(rule->normative, "definition") << id;
  }
}

TEST(RuleCatalog, ReferencesNameNoProjectFile) {
  // A reference a user cannot open is no reference.
  for (const RuleInfo& rule : rule_catalog()) {
    EXPECT_EQ(rule.reference.find("seeds/"), std::string_view::npos) << rule.id;
    EXPECT_EQ(rule.reference.find(".txt"), std::string_view::npos) << rule.id;
  }
}

TEST(RuleCatalog, FamiliesAreListedInCatalogOrder) {
  std::vector<std::string_view> families = rule_families();
  ASSERT_EQ(families.size(), 14u);
  EXPECT_EQ(families.front(), "version");
  EXPECT_EQ(families.back(), "python");
}

TEST(RuleCatalog, FindRuleByIdAndNotOtherwise) {
  const RuleInfo* rule = find_rule("DLP-STRIDES-NULL");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->severity, Severity::error);
  EXPECT_EQ(rule->since, (dlpack::Release{1, 2}));
  EXPECT_EQ(find_rule("DLP-NO-SUCH-RULE"), nullptr);
  EXPECT_EQ(find_rule("dlp-strides-null"), nullptr);
}

TEST(RuleCatalog, SeverityNamesRoundTrip) {
  for (Severity severity : {Severity::info, Severity::warning, Severity::error}) {
    EXPECT_EQ(parse_severity(to_string(severity)), severity);
  }
  EXPECT_EQ(parse_severity("fatal"), std::nullopt);
}

TEST(Evaluate, CleanTensorHasNoFindings) {
  EXPECT_TRUE(evaluate(clean_tensor()).empty());
  EXPECT_TRUE(evaluate(testing::clean_oneapi_tensor()).empty());
}

TEST(Evaluate, LegacyTensorsAreJudgedAsRelease08) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.abi = facts::Abi::legacy;
  EXPECT_EQ(judged_release(tensor), (dlpack::Release{0, 8}));
  // kDLBool came in 0.8, so a legacy bool tensor is fine; float8 is not.
  tensor.dtype = {dlpack::kDLBool, 8, 1};
  EXPECT_FALSE(fires(tensor, "DLP-DTYPE-CODE-VERSION"));
  tensor.dtype = {dlpack::kDLFloat8_e4m3fn, 8, 1};
  EXPECT_TRUE(fires(tensor, "DLP-DTYPE-CODE-VERSION"));
}

TEST(Evaluate, RulesOutsideTheirVersionRangeDoNotRun) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.strides.reset();
  tensor.version = {1, 1};
  EXPECT_TRUE(fires(tensor, "DLP-STRIDES-NULL-ROW-MAJOR"));
  EXPECT_FALSE(fires(tensor, "DLP-STRIDES-NULL"));
  tensor.version = {1, 2};
  EXPECT_FALSE(fires(tensor, "DLP-STRIDES-NULL-ROW-MAJOR"));
  EXPECT_TRUE(fires(tensor, "DLP-STRIDES-NULL"));
}

TEST(Evaluate, UnknownMajorRunsOnlyHeaderRules) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.version = {2, 0};
  tensor.body_read = false;
  // Whatever the body holds (here: garbage the reader left at defaults or
  // a capsule file wrote down), only the header is judged.
  tensor.ndim = -5;
  tensor.flags = 0xff;
  tensor.has_deleter = false;
  EXPECT_EQ(fired_ids(tensor), (std::vector<std::string>{"DLP-VERSION-MAJOR", "DLP-DELETER-NULL"}));
  // The same holds when a reader did fill the body of a major-2 tensor.
  tensor.body_read = true;
  EXPECT_EQ(fired_ids(tensor), (std::vector<std::string>{"DLP-VERSION-MAJOR", "DLP-DELETER-NULL"}));
}

// One Evaluation reused from tensor to tensor (as capsule check's workers
// reuse it) remembers which rules run for the release it judged last: a
// tensor of another release, a legacy one or an unknown major must get the
// rules of its own, the findings a fresh evaluate() gives.
TEST(Evaluate, AReusedEvaluationFollowsEachTensorsRelease) {
  facts::TensorFacts row_major = clean_tensor();
  row_major.strides.reset();
  row_major.version = {1, 1};
  facts::TensorFacts null_strides = row_major;
  null_strides.version = {1, 2};
  facts::TensorFacts legacy = row_major;
  legacy.abi = facts::Abi::legacy;
  legacy.version = {0, 0};
  facts::TensorFacts unknown_major = clean_tensor();
  unknown_major.version = {2, 0};
  unknown_major.has_deleter = false;
  Evaluation evaluation;
  for (int round = 0; round < 2; ++round) {
    for (const facts::TensorFacts* tensor :
         {&row_major, &null_strides, &row_major, &legacy, &unknown_major, &null_strides}) {
      evaluate_into(*tensor, evaluation);
      std::vector<std::string> reused;
      for (const Finding& finding : evaluation.findings) reused.push_back(finding.rule_id);
      std::vector<std::string> fresh;
      for (const Finding& finding : evaluate(*tensor)) fresh.push_back(finding.rule_id);
      EXPECT_EQ(reused, fresh) << "version " << tensor->version.major << "."
                               << tensor->version.minor;
    }
  }
  evaluate_into(null_strides, evaluation);
  EXPECT_EQ(evaluation.findings.size(), 1U);
  EXPECT_EQ(evaluation.findings.front().rule_id, "DLP-STRIDES-NULL");
}

TEST(Evaluate, FindingsCarryTheirRulesSeverity) {
  facts::TensorFacts tensor = clean_tensor();
  tensor.dtype.lanes = 4;
  tensor.flags = dlpack::kFlagReadOnly;
  for (const Finding& finding : evaluate(tensor)) {
    const RuleInfo* rule = find_rule(finding.rule_id);
    ASSERT_NE(rule, nullptr) << finding.rule_id;
    EXPECT_EQ(finding.severity, rule->severity) << finding.rule_id;
    EXPECT_FALSE(finding.field.empty()) << finding.rule_id;
    EXPECT_FALSE(finding.message.empty()) << finding.rule_id;
  }
  EXPECT_FALSE(has_errors(evaluate(tensor)));
  // float6 with 8 bits breaks the header's "must".
  tensor.dtype = {dlpack::kDLFloat6_e3m2fn, 8, 1};
  EXPECT_TRUE(has_errors(evaluate(tensor)));
}

}  // namespace
}  // namespace dlpack_usm::rules
