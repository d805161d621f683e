// The conformance suite shipped in conformance/: every rule has a failing
// and a passing capsule file (behaviour rules, which no single struct shows,
// a failing and a passing fixture plugin in fixtures/plugins/behaviour_vectors.json; runtime rules
// a failing and a passing observation in fixtures/runtime/owner_answer_vectors.json), each failing
// file fires its rules and no other error rule, each passing file fires no error, and the manifest
// lists exactly the files on disk.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "capsule/capsule_file.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::rules {
namespace {

namespace fs = std::filesystem;

const fs::path kConformance = fs::path(DLPACK_USM_SOURCE_DIR) / "conformance";

struct Vector {
  std::string file;  // relative to conformance/
  std::vector<std::string> expect;
  std::string passes;  // empty for failing vectors
  // Failing vectors: the highest severity the expected rules' findings
  // carry, so a change of a rule's severity shows as a change of verdict.
  std::string verdict;
};

std::vector<Vector> load_manifest() {
  std::ifstream in(kConformance / "manifest.json");
  EXPECT_TRUE(in) << "cannot open conformance/manifest.json";
  nlohmann::json manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest.at("format"), 1);
  std::vector<Vector> vectors;
  for (const auto& entry : manifest.at("vectors")) {
    for (const auto& [key, value] : entry.items()) {
      EXPECT_TRUE(key == "file" || key == "expect" || key == "passes" || key == "verdict")
          << "unknown manifest key " << key;
    }
    Vector vector{entry.at("file").get<std::string>(),
                  entry.at("expect").get<std::vector<std::string>>(),
                  entry.value("passes", std::string()), entry.value("verdict", std::string())};
    vectors.push_back(std::move(vector));
  }
  return vectors;
}

std::vector<Finding> evaluate_file(const std::string& file) {
  std::vector<facts::TensorFacts> tensors = capsule::read_capsule_file(kConformance / file);
  EXPECT_EQ(tensors.size(), 1u) << file << ": a vector holds exactly one tensor";
  return tensors.empty() ? std::vector<Finding>{} : evaluate(tensors.front());
}

std::string describe(const std::vector<Finding>& findings) {
  std::string text;
  for (const Finding& f : findings) {
    text += "\n  " + f.rule_id + " (" + to_string(f.severity) + ") " + f.field + ": " + f.message;
  }
  return text.empty() ? " none" : text;
}

bool fired(const std::vector<Finding>& findings, const std::string& id) {
  return std::any_of(findings.begin(), findings.end(),
                     [&id](const Finding& f) { return f.rule_id == id; });
}

TEST(ConformanceVectors, ManifestListsExactlyTheFilesOnDisk) {
  std::set<std::string> listed;
  for (const Vector& vector : load_manifest()) {
    EXPECT_TRUE(listed.insert(vector.file).second) << "listed twice: " << vector.file;
  }
  std::set<std::string> on_disk;
  for (const auto& entry : fs::recursive_directory_iterator(kConformance / "vectors")) {
    if (entry.is_regular_file()) {
      on_disk.insert(fs::relative(entry.path(), kConformance).generic_string());
    }
  }
  for (const std::string& file : on_disk) EXPECT_TRUE(listed.count(file)) << "unlisted: " << file;
  for (const std::string& file : listed) EXPECT_TRUE(on_disk.count(file)) << "missing: " << file;
}

// The rows of a table of vectors that no capsule file can show, under
// fixtures/: each names the rules it fails ("expect") or passes ("passes").
nlohmann::json load_fixture_vectors(const std::string& relative) {
  std::ifstream in(fs::path(DLPACK_USM_SOURCE_DIR) / "fixtures" / relative);
  EXPECT_TRUE(in) << "cannot open fixtures/" << relative;
  nlohmann::json table = nlohmann::json::parse(in);
  EXPECT_EQ(table.at("format"), 1);
  return table.at("vectors");
}

// The fixture-plugin rows: which library fails or passes which rules.
nlohmann::json load_behaviour_vectors() {
  return load_fixture_vectors("plugins/behaviour_vectors.json");
}

// The runtime rows: what a runtime answered (rules_runtime_test runs them)
// and what the stream checks' controls saw (python/tests/test_stream_control.py).
nlohmann::json load_runtime_vectors() {
  nlohmann::json rows = load_fixture_vectors("runtime/owner_answer_vectors.json");
  for (const auto& row : load_fixture_vectors("runtime/queue_order_vectors.json")) {
    rows.push_back(row);
  }
  return rows;
}

// How many rows of a fixture table fail and pass each rule.
void count_rows(const nlohmann::json& rows, std::map<std::string, int>& failing,
                std::map<std::string, int>& passing) {
  for (const auto& row : rows) {
    for (const auto& id : row.value("expect", nlohmann::json::array())) ++failing[id];
    for (const auto& id : row.value("passes", nlohmann::json::array())) ++passing[id];
  }
}

TEST(ConformanceVectors, EveryRuleHasAFailingAndAPassingVector) {
  std::map<std::string, int> failing;
  std::map<std::string, int> passing;
  for (const Vector& vector : load_manifest()) {
    for (const std::string& id : vector.expect) ++failing[id];
    if (!vector.passes.empty()) ++passing[vector.passes];
  }
  std::map<std::string, int> failing_fixtures;
  std::map<std::string, int> passing_fixtures;
  count_rows(load_behaviour_vectors(), failing_fixtures, passing_fixtures);
  std::map<std::string, int> failing_runtime;
  std::map<std::string, int> passing_runtime;
  count_rows(load_runtime_vectors(), failing_runtime, passing_runtime);
  for (const RuleInfo& rule : rule_catalog()) {
    std::string id(rule.id);
    if (rule.family == "runtime") {
      // What a runtime answers is no tensor: its vectors are observations.
      EXPECT_GE(failing_runtime[id], 1) << id << " has no failing runtime vector";
      EXPECT_GE(passing_runtime[id], 1) << id << " has no passing runtime vector";
      EXPECT_EQ(failing[id] + passing[id], 0) << id << ": no capsule file can show a runtime";
      continue;
    }
    if (rule.family == "behaviour" || rule.family == "exchange-api") {
      // What a library does, and the exchange API table it publishes, show
      // only when it runs: their vectors are fixture plugins, run through
      // the real binary by plugin_check_test.
      EXPECT_GE(failing_fixtures[id], 1) << id << " has no failing fixture plugin";
      EXPECT_GE(passing_fixtures[id], 1) << id << " has no passing fixture plugin";
      EXPECT_EQ(failing[id] + passing[id], 0) << id << ": no capsule file can show behaviour";
      continue;
    }
    if (rule.family == "python") {
      // The Python protocol's vectors are Python producers and consumers
      // (python/tests, whose test_protocol_rules.py holds every rule of the
      // family to a failing one); no capsule file shows a Python call.
      EXPECT_EQ(failing[id] + passing[id], 0) << id << ": no capsule file can show Python";
      continue;
    }
    EXPECT_GE(failing[id], 1) << id << " has no failing vector";
    EXPECT_GE(passing[id], 1) << id << " has no passing vector";
  }
}

TEST(ConformanceVectors, FixturePluginRowsNameCatalogRules) {
  for (const auto& row : load_behaviour_vectors()) {
    for (const char* key : {"expect", "passes"}) {
      for (const auto& id : row.value(key, nlohmann::json::array())) {
        EXPECT_NE(find_rule(id.get<std::string>()), nullptr) << "unknown rule " << id;
      }
    }
    EXPECT_TRUE(row.at("outcome") == "pass" ? row.contains("passes") : row.contains("expect"))
        << row.dump();
  }
}

TEST(ConformanceVectors, FailingVectorsFireTheirRulesAndNoOtherError) {
  for (const Vector& vector : load_manifest()) {
    if (vector.expect.empty()) continue;
    SCOPED_TRACE(vector.file);
    EXPECT_TRUE(vector.passes.empty()) << "a failing vector demonstrates no passing rule";
    std::vector<Finding> findings = evaluate_file(vector.file);
    for (const std::string& id : vector.expect) {
      EXPECT_NE(find_rule(id), nullptr) << "unknown rule " << id;
      EXPECT_TRUE(fired(findings, id)) << id << " did not fire; findings:" << describe(findings);
    }
    ASSERT_TRUE(parse_severity(vector.verdict)) << "a failing vector states its verdict";
    Severity highest = Severity::info;
    for (const Finding& finding : findings) {
      bool expected = std::find(vector.expect.begin(), vector.expect.end(), finding.rule_id) !=
                      vector.expect.end();
      if (expected) highest = std::max(highest, finding.severity);
    }
    EXPECT_EQ(to_string(highest), vector.verdict);
    for (const Finding& finding : findings) {
      if (finding.severity != Severity::error) continue;
      EXPECT_NE(std::find(vector.expect.begin(), vector.expect.end(), finding.rule_id),
                vector.expect.end())
          << "unexpected error " << finding.rule_id << ": " << finding.message;
    }
  }
}

TEST(ConformanceVectors, PassingVectorsFireNoErrorAndNotTheirRule) {
  for (const Vector& vector : load_manifest()) {
    if (!vector.expect.empty()) continue;
    SCOPED_TRACE(vector.file);
    EXPECT_TRUE(vector.verdict.empty()) << "a passing vector has no verdict";
    ASSERT_FALSE(vector.passes.empty()) << "a passing vector names the rule it demonstrates";
    EXPECT_NE(find_rule(vector.passes), nullptr) << "unknown rule " << vector.passes;
    std::vector<Finding> findings = evaluate_file(vector.file);
    EXPECT_FALSE(has_errors(findings)) << "findings:" << describe(findings);
    EXPECT_FALSE(fired(findings, vector.passes)) << "findings:" << describe(findings);
  }
}

}  // namespace
}  // namespace dlpack_usm::rules
