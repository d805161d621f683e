#include "suite/gate/fleet_expectation.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr const char* kHint =
    "a job of the CI matrix uploaded no report, or --expect names the fleet wrongly: give "
    "one --expect LABEL:SHARDS per machine kind of the matrix ('check --label LABEL --shard "
    "I/SHARDS')";

std::string shown(const std::string& label) {
  return label.empty() ? std::string("(no --label)") : quote_for_message(label, 64);
}

}  // namespace

ExpectedRuns parse_expected_runs(const std::string& text) {
  ExpectedRuns expected;
  std::size_t colon = text.rfind(':');
  expected.label = colon == std::string::npos ? text : text.substr(0, colon);
  if (colon != std::string::npos) {
    std::string_view count = std::string_view(text).substr(colon + 1);
    auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), expected.shards);
    if (error != std::errc() || end != count.data() + count.size() || expected.shards < 1) {
      fail_usage(fmt::format("--expect {}: the shard count after ':' is not a positive number",
                             quote_for_message(text, 64)),
                 "write LABEL or LABEL:SHARDS, as in --expect gpu:3");
    }
  }
  if (expected.label.empty()) {
    fail_usage(fmt::format("--expect {}: no label", quote_for_message(text, 64)),
               "write the label the runs gave 'check --label', as in --expect gpu:3");
  }
  return expected;
}

void check_fleet(const std::vector<report::ShardReport>& inputs,
                 const std::vector<ExpectedRuns>& expected) {
  if (expected.empty()) return;
  std::map<std::string, int> counts;  // label -> the shard count its reports give
  for (const report::ShardReport& run : inputs) counts[run.label] = run.shard.count;
  for (const ExpectedRuns& runs : expected) {
    auto found = counts.find(runs.label);
    if (found == counts.end()) {
      fail_usage(fmt::format("report merge: no report is labelled {}, which --expect waits for "
                             "({} shard{}): the fleet is half-merged, and a half-merged fleet "
                             "never passes",
                             shown(runs.label), runs.shards, runs.shards == 1 ? "" : "s"),
                 kHint);
    }
    if (found->second != runs.shards) {
      fail_usage(fmt::format("report merge: the reports labelled {} are shards of {}, and "
                             "--expect waits for {}",
                             shown(runs.label), found->second, runs.shards),
                 kHint);
    }
    counts.erase(found);
  }
  if (!counts.empty()) {
    fail_usage(fmt::format("report merge: reports labelled {} are not among the --expect "
                           "labels",
                           shown(counts.begin()->first)),
               kHint);
  }
}

}  // namespace dlpack_usm::suite
