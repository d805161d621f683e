// The handoffs of a check report (check --python-handoff, dlpack-usm
// handoff) as the pairwise grid's cases: one per tensor handed over, its
// result decided by the producer's step ("emitted": a broken capsule or a
// crash there fails, the producer's fault) and then the consumer's
// ("direct": works, declines or fails). The remedies are the story's, not
// the grid's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compat/pair_grid.hpp"
#include "report/formats/report_json_reader.hpp"

namespace dlpack_usm::compat {

// The cases of the handoff `plugin` describes (its role "handoff"), the
// libraries titled "name version" and, where the run had one, its label
// ("numpy 2.4.6 (ci)").
std::vector<PairCase> read_handoffs(const report::CheckReportRecords& records,
                                    const nlohmann::json& plugin, const std::string& label);

}  // namespace dlpack_usm::compat
