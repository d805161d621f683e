// `dlpack-usm report merge`: one gate decision from the reports of several
// `check` runs — the shards of a CI matrix (--shard I/N) and the runs of
// different machines (--label NAME). Runs with one label are the shards of
// one suite and must fit together exactly; runs with different labels are
// kept apart by prefixing their case ids with the label.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "suite/check_run.hpp"

namespace dlpack_usm::suite {

// Shard reports are a few hundred KiB; a bound keeps a wrong path harmless.
inline constexpr std::size_t kMaxShardReportBytes = std::size_t{256} << 20;

// One `check --report` file, as read from disk.
struct ShardReport {
  std::string file;
  nlohmann::ordered_json report;
};

// Throws Error(usage) naming the file when it is not a readable check report.
ShardReport read_shard_report(const std::filesystem::path& path);

struct MergedRun {
  CheckRun run;  // every case of every input, verdicts as each run decided them
  // The first input's environment, and each input's own header (file, label,
  // shard, timing, environment, summary) for the merged report's "runs".
  nlohmann::ordered_json environment;
  // The expectation files of every input, each once.
  nlohmann::ordered_json expectations = nlohmann::ordered_json::array();
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
};

// Throws Error(usage) when inputs of one label come from different suites,
// tool versions, selections or expectation files, when two inputs are the
// same shard or share a case, or when a shard of a label is missing.
MergedRun merge_shard_reports(const std::vector<ShardReport>& inputs,
                              const std::vector<std::string>& command_line);

}  // namespace dlpack_usm::suite
