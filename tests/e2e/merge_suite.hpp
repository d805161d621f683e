// The test fixture of `report merge`: a three-vector suite (two vectors whose
// manifest entries are right and one, vector/wrong, that claims a rule its
// capsule does not break), `check` runs of it, and merges of their reports.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {

class MergeSuite : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Runs `check` on the three-vector suite and returns its report's path.
  std::string shard_report(const std::string& name, std::vector<std::string> extra);
  // Shard 1/2 and 2/2, with `extra`; the first holds vector/wrong.
  std::vector<std::string> two_shards(const std::string& prefix,
                                      const std::vector<std::string>& extra = {});
  ToolResult merge(std::vector<std::string> reports, std::vector<std::string> extra = {});

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  nlohmann::json read_json(const std::string& name) const;
  void write_json(const std::string& name, const nlohmann::json& report) const;
  std::string read_text(const std::string& name) const;

  std::filesystem::path dir_;
};

// The result of `id` in a report.
nlohmann::json& result_of(nlohmann::json& report, const std::string& id);

}  // namespace dlpack_usm::e2e
