// What `report merge` makes of several check runs: one run to decide the
// gate on, and what the merged report says of each input.
#pragma once

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
};

}  // namespace dlpack_usm::suite
