#include "suite/cases/vectors/vector_cases.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::suite {
namespace {

// A vector: its capsule file, the rules its manifest entry says must fire,
// and the rule it demonstrates passing, if any.
struct VectorCase final : CaseDetails {
  VectorCase(std::string capsule_file, std::vector<std::string> expected, std::string passing)
      : file(std::move(capsule_file)), expect(std::move(expected)), passes(std::move(passing)) {}
  std::string file;  // relative to the suite directory
  std::vector<std::string> expect;
  std::string passes;
};

nlohmann::json read_manifest(const std::filesystem::path& directory) {
  std::filesystem::path path = directory / "manifest.json";
  std::ifstream in(path);
  if (!in) {
    fail_usage(fmt::format("cannot read the conformance manifest {}", path.string()),
               "give the suite directory with --suite DIR, or set DLPACK_USM_CONFORMANCE_DIR");
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json manifest = nlohmann::json::parse(text.str(), nullptr, false);
  if (!manifest.is_object() || !manifest.contains("vectors") || !manifest["vectors"].is_array()) {
    fail_usage(fmt::format("{} is not a conformance manifest (an object with a 'vectors' array)",
                           path.string()));
  }
  return manifest;
}

std::vector<std::string> string_list(const nlohmann::json& value) {
  std::vector<std::string> list;
  if (value.is_array()) {
    for (const auto& item : value) {
      if (item.is_string()) list.push_back(item.get<std::string>());
    }
  }
  return list;
}

// "vectors/shape/strides-null.json" -> "vector/shape/strides-null".
std::string case_id_for(const std::string& file) {
  std::string id = file;
  if (id.rfind("vectors/", 0) == 0) id = id.substr(8);
  if (id.size() > 5 && id.compare(id.size() - 5, 5, ".json") == 0) id.resize(id.size() - 5);
  return "vector/" + id;
}

// The rules a vector got wrong: expected ones that did not fire, and
// error rules (or the rule it shows passing) that fired unexpectedly.
struct VectorMismatch {
  std::vector<std::string> missing;
  std::vector<std::string> unexpected;
};

VectorMismatch compare_rules(const std::vector<std::string>& expect, const std::string& passes,
                             const std::vector<rules::Finding>& findings) {
  std::set<std::string> fired, fired_errors;
  for (const rules::Finding& finding : findings) {
    fired.insert(finding.rule_id);
    if (finding.severity == rules::Severity::error) fired_errors.insert(finding.rule_id);
  }
  VectorMismatch mismatch;
  for (const std::string& rule : expect) {
    if (!fired.count(rule)) mismatch.missing.push_back(rule);
  }
  for (const std::string& rule : fired_errors) {
    if (std::find(expect.begin(), expect.end(), rule) == expect.end()) {
      mismatch.unexpected.push_back(rule);
    }
  }
  if (!passes.empty() && fired.count(passes)) mismatch.unexpected.push_back(passes);
  return mismatch;
}

// The verdict on a vector from the findings of its tensors. A mismatch is a
// check of the suite itself (a finding without a rule) and keeps what each
// unexpected rule said of which field, so that a regression shows it.
CaseResult judge_vector(const std::string& id, const std::vector<std::string>& expect,
                        const std::string& passes, const std::vector<rules::Finding>& findings) {
  CaseResult result(id, Outcome::pass);
  std::set<std::string> fired;
  for (const rules::Finding& finding : findings) fired.insert(finding.rule_id);
  result.rule_ids.assign(fired.begin(), fired.end());
  VectorMismatch mismatch = compare_rules(expect, passes, findings);
  if (mismatch.missing.empty() && mismatch.unexpected.empty()) {
    result.message = expect.empty() ? fmt::format("no error finding{}",
                                                  passes.empty() ? "" : ", " + passes + " silent")
                                    : fmt::format("fired {}", fmt::join(expect, ", "));
    return result;
  }
  result.outcome = Outcome::fail;
  std::vector<std::string> parts;
  if (!mismatch.missing.empty())
    parts.push_back(fmt::format("expected {} to fire", fmt::join(mismatch.missing, ", ")));
  if (!mismatch.unexpected.empty())
    parts.push_back(fmt::format("unexpected {}", fmt::join(mismatch.unexpected, ", ")));
  result.message = fmt::format(
      "{} (fired: {})", fmt::join(parts, "; "),
      fired.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(fired, ", ")));
  result.findings.push_back({"", rules::Severity::error, result.message});
  for (const rules::Finding& finding : findings) {
    const auto& unexpected = mismatch.unexpected;
    if (std::find(unexpected.begin(), unexpected.end(), finding.rule_id) == unexpected.end()) {
      continue;
    }
    result.findings.push_back(
        {finding.rule_id, finding.severity, fmt::format("{}: {}", finding.field, finding.message)});
  }
  return result;
}

}  // namespace

std::filesystem::path default_conformance_dir() {
  if (const char* from_env = std::getenv("DLPACK_USM_CONFORMANCE_DIR"); from_env && *from_env) {
    return from_env;
  }
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    std::filesystem::path installed =
        self.parent_path().parent_path() / "share" / "dlpack-usm" / "conformance";
    if (std::filesystem::exists(installed / "manifest.json")) return installed;
  }
  return DLPACK_USM_SOURCE_CONFORMANCE_DIR;
}

VectorCaseSource::VectorCaseSource(std::filesystem::path conformance_dir)
    : directory_(std::move(conformance_dir)) {
  nlohmann::json manifest = read_manifest(directory_);
  for (const auto& entry : manifest["vectors"]) {
    if (!entry.is_object() || !entry.value("file", nlohmann::json()).is_string()) {
      fail_usage(fmt::format("{}/manifest.json: every vector needs a 'file'", directory_.string()));
    }
    std::string file = entry["file"].get<std::string>();
    std::vector<std::string> expect = string_list(entry.value("expect", nlohmann::json::array()));
    std::string passes = entry.value("passes", nlohmann::json()).is_string()
                             ? entry["passes"].get<std::string>()
                             : std::string();
    std::vector<std::string> rules = expect;
    if (!passes.empty()) rules.push_back(passes);
    CaseSpec spec{case_id_for(file), "vector", "", rules,
                  std::make_shared<const VectorCase>(file, expect, passes)};
    spec.file = (directory_ / file).lexically_normal().string();
    cases_.push_back(std::move(spec));
  }
}

RuleVectors vectors_of_rule(const std::filesystem::path& conformance_dir,
                            std::string_view rule_id) {
  RuleVectors vectors;
  for (const CaseSpec& spec : VectorCaseSource(conformance_dir).cases()) {
    const auto& vector = spec.details_as<VectorCase>();
    std::filesystem::path path = conformance_dir / vector.file;
    if (std::find(vector.expect.begin(), vector.expect.end(), rule_id) != vector.expect.end()) {
      vectors.failing.push_back(path);
    }
    if (vector.passes == rule_id) vectors.passing.push_back(path);
  }
  return vectors;
}

std::filesystem::path vector_file(const CaseSpec& spec, const std::filesystem::path& suite_dir) {
  if (spec.source != "vector" || spec.details == nullptr) return {};
  return suite_dir / spec.details_as<VectorCase>().file;
}

CaseResult VectorCaseSource::run(const CaseSpec& spec) {
  const VectorCase& vector = spec.details_as<VectorCase>();
  std::vector<rules::Finding> findings;
  for (const facts::TensorFacts& tensor : capsule::read_capsule_file(directory_ / vector.file)) {
    for (rules::Finding& finding : rules::evaluate(tensor)) findings.push_back(std::move(finding));
  }
  return judge_vector(spec.id, vector.expect, vector.passes, findings);
}

}  // namespace dlpack_usm::suite
