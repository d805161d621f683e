// Which cases a `check` run executes: filters by id glob, rule and device,
// then a deterministic shard, so that a CI matrix can split the work and
// every case runs exactly once across the shards.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

struct Shard {
  int index = 1;  // 1-based
  int count = 1;
};
// "2/5" -> {2, 5}. Throws Error(usage) unless 1 <= I <= N.
Shard parse_shard(const std::string& text);

struct Selection {
  std::vector<std::string> id_globs;    // --filter: any may match (fnmatch)
  std::vector<std::string> rule_globs;  // --rule: the case names a matching rule
  std::vector<std::string> devices;     // --device: the case runs on it or its sub-device
  std::vector<std::string> cells;       // --cell: the case offers or makes that cell
  std::optional<Shard> shard;
};

struct SelectedCases {
  std::vector<CaseSpec> to_run;  // sorted by id, filtered, then this shard's part
  // Cases the filters left out, recorded as skipped. Each belongs to one
  // shard (by its position among all cases), so shards never repeat one.
  std::vector<CaseSpec> filtered_out;
};
SelectedCases partition_cases(std::vector<CaseSpec> cases, const Selection& selection);

// partition_cases(...).to_run.
std::vector<CaseSpec> select_cases(std::vector<CaseSpec> cases, const Selection& selection);

// Whether `device` ("opencl:cpu:1.0") is `wanted` ("opencl:cpu:1") or one of
// its sub-devices, or matches it as a glob.
bool device_matches(const std::string& device, const std::string& wanted);
// fnmatch(3) of `text` against `pattern`.
bool glob_matches(const std::string& pattern, const std::string& text);

}  // namespace dlpack_usm::suite
