// `report merge --expect LABEL[:SHARDS]`: the fleet a merge must find. A CI
// matrix whose every job of one machine kind uploaded nothing leaves no
// report of that label, and shards that do arrive fit together; only the
// merge's own list of what it waits for tells a half-merged fleet from a
// whole one. Each expected label must have sent reports of SHARDS shards
// (1 without ":SHARDS"), and no report may carry a label not expected.
#pragma once

#include <string>
#include <vector>

#include "report/formats/report_json_reader.hpp"

namespace dlpack_usm::suite {

struct ExpectedRuns {
  std::string label;
  int shards = 1;
};

// "gpu:3" -> {"gpu", 3}; "cpu" -> {"cpu", 1}. Throws Error(usage) for an
// empty label or a shard count that is not a positive number.
ExpectedRuns parse_expected_runs(const std::string& text);

// Throws Error(usage) naming what is missing or unexpected: a label no
// report carries, reports of a label with another shard count, a label not
// expected. Nothing is checked where `expected` is empty.
void check_fleet(const std::vector<report::ShardReport>& inputs,
                 const std::vector<ExpectedRuns>& expected);

}  // namespace dlpack_usm::suite
