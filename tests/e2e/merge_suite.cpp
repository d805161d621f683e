#include "merge_suite.hpp"

#include <unistd.h>

#include <fstream>

#include <fmt/format.h>

namespace dlpack_usm::e2e {

namespace fs = std::filesystem;
using nlohmann::json;

void MergeSuite::SetUp() {
  dir_ = fs::temp_directory_path() /
         fmt::format("dlpack-usm-merge-{}-{}", getpid(),
                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir_);
  fs::create_directories(dir_ / "suite/vectors");
  fs::path capsule = source_path("conformance/vectors/shape/strides-null-1.2.json");
  for (const char* name : {"a", "b", "wrong"}) {
    fs::copy_file(capsule, dir_ / "suite/vectors" / (std::string(name) + ".json"));
  }
  std::ofstream(dir_ / "suite/manifest.json") << R"({"vectors": [
      {"file": "vectors/a.json", "expect": ["DLP-STRIDES-NULL"]},
      {"file": "vectors/b.json", "expect": ["DLP-STRIDES-NULL"]},
      {"file": "vectors/wrong.json", "expect": ["DLP-SHAPE-NULL"]}]})";
}

void MergeSuite::TearDown() {
  fs::remove_all(dir_);
}

std::string MergeSuite::shard_report(const std::string& name, std::vector<std::string> extra) {
  std::string report = path(name);
  std::vector<std::string> arguments{"check",    "--suite",  path("suite"), "--filter",
                                     "vector/*", "--report", report};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  ToolResult result = run_tool(arguments);
  EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.err;
  return report;
}

std::vector<std::string> MergeSuite::two_shards(const std::string& prefix,
                                                const std::vector<std::string>& extra) {
  std::vector<std::string> shards;
  for (const char* shard : {"1/2", "2/2"}) {
    std::vector<std::string> options{"--shard", shard};
    options.insert(options.end(), extra.begin(), extra.end());
    shards.push_back(shard_report(fmt::format("{}{}.json", prefix, shard[0]), options));
  }
  // The shard of vector/wrong first.
  json first = read_json(fs::path(shards[0]).filename());
  bool holds_wrong = false;
  for (const json& entry : first["results"]) holds_wrong |= entry["id"] == "vector/wrong";
  if (!holds_wrong) std::swap(shards[0], shards[1]);
  return shards;
}

ToolResult MergeSuite::merge(std::vector<std::string> reports, std::vector<std::string> extra) {
  std::vector<std::string> arguments{"report", "merge"};
  arguments.insert(arguments.end(), reports.begin(), reports.end());
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return run_tool(arguments);
}

json MergeSuite::read_json(const std::string& name) const {
  return json::parse(read_text(name));
}

void MergeSuite::write_json(const std::string& name, const json& report) const {
  std::ofstream(dir_ / name) << report.dump(1);
}

std::string MergeSuite::read_text(const std::string& name) const {
  return read_file(dir_ / fs::path(name).filename());
}

json& result_of(json& report, const std::string& id) {
  for (json& entry : report["results"]) {
    if (entry["id"] == id) return entry;
  }
  throw std::runtime_error("no result " + id);
}

}  // namespace dlpack_usm::e2e
