// `dlpack-usm report merge`: one gate decision from the reports of several
// `check` runs — the shards of a CI matrix (--shard I/N) and the runs of
// different machines (--label NAME). Runs with one label are the shards of
// one suite and must fit together exactly; runs with different labels are
// kept apart by prefixing their case ids with the label.
//
// A report is a file anyone can edit, so the merge takes from it only what
// it cannot derive, and checks the rest: every verdict is decided again from
// the outcome, the attempts, the run's --strict and the expectation files
// themselves (given to the merge, matched to the runs by SHA-256); the case
// ids of each label must be the suite's (its full digest, each case once, in
// the shard the selection puts it, skipped only where the filters leave it
// out); a run that was interrupted fails the gate.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/formats/report_json_reader.hpp"
#include "suite/model/expectations.hpp"
#include "suite/model/merged_run.hpp"

namespace dlpack_usm::suite {

// Throws Error(usage) when inputs of one label come from different suites,
// tool versions, selections or expectation files, when two inputs are the
// same shard, when the case ids of a label are not those of its suite
// (missing, repeated, renamed, in another shard, skipped though selected),
// when a run used an expectation file not among `expectation_files` (read
// from the merge's --baseline and --flakes), or when a verdict, attempt
// count or first outcome of a report is not what its run would have given.
MergedRun merge_shard_reports(const std::vector<report::ShardReport>& inputs,
                              const std::vector<ExpectationFile>& expectation_files,
                              const std::vector<std::string>& command_line);

}  // namespace dlpack_usm::suite
