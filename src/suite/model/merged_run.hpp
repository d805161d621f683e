// What `report merge` makes of several check runs: one run to decide the
// gate on, and what the merged report says of each input.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

struct MergedRun {
  // Every case of every input, verdicts decided again; the expectation
  // files are those of the merge that some run used.
  CheckRun run;
  // The first input's environment, and each input's own header (file, label,
  // shard, timing, environment, summary) for the merged report's "runs".
  nlohmann::ordered_json environment;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  // For stderr: the entries of --baseline and --flakes that name no case of
  // any input (unmatched_entry_warnings).
  std::vector<std::string> warnings;
};

}  // namespace dlpack_usm::suite
