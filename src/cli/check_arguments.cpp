#include "cli/check_arguments.hpp"

#include <cmath>

#include <fmt/format.h>

#include "cli/library_options.hpp"
#include "cli/number_options.hpp"
#include "cli/runtime_option.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "suite/model/check_run.hpp"
#include "suite/model/selection.hpp"

namespace dlpack_usm::cli {
namespace {

constexpr double kMinTimeoutSeconds = 0.01;
constexpr double kMaxTimeoutSeconds = 86400;
constexpr int kMaxJobs = 4096;
constexpr int kMaxLimit = 1000000;  // --max-failures, --max-consecutive-hangs
constexpr int kMaxBatch = 100000;

// Seconds from 10 ms to a day: NaN, infinities and values whose millisecond
// count rounds to 0 or overflows would time out every case.
CLI::Validator timeout_seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double seconds = 0;
        try {
          std::size_t used = 0;
          seconds = std::stod(text, &used);
          if (used != text.size()) return fmt::format("'{}' is not a number of seconds", text);
        } catch (const std::exception&) {
          return fmt::format("'{}' is not a number of seconds", text);
        }
        if (!std::isfinite(seconds) || seconds < kMinTimeoutSeconds ||
            seconds > kMaxTimeoutSeconds) {
          return fmt::format("{} is not between {} and {} seconds", text, kMinTimeoutSeconds,
                             kMaxTimeoutSeconds);
        }
        return {};
      },
      "");
}

// A label becomes a prefix of case ids in merged reports: a short name
// without spaces or slashes.
CLI::Validator label_syntax() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (suite::is_plain_label(text)) return {};
        return fmt::format(
            "{} is not a label: use 1 to {} letters, digits, '.', '_' or '-' (e.g. h100)",
            quote_for_message(text), suite::kMaxLabelLength);
      },
      "");
}

CLI::Validator shard_syntax() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          suite::parse_shard(text);
        } catch (const Error& error) {
          return fmt::format("{} ({})", error.what(), error.hint());
        }
        return {};
      },
      "");
}

}  // namespace

// The limits that turn cases away (dlpack-usm-check(1), Isolation).
void add_limit_options(CLI::App& command, CheckArguments& args) {
  command
      .add_option("--max-failures", args.max_failures,
                  "Stop the run after N failing cases; the rest are not run (default 0: never)")
      ->check(CLI::Range(0, kMaxLimit).description(""))
      ->type_name("N");
  command
      .add_option("--max-consecutive-hangs", args.max_consecutive_hangs,
                  "Stop testing a library that hung or crashed on N cases in a row (default 5; "
                  "0: never)")
      ->check(CLI::Range(0, kMaxLimit).description(""))
      ->type_name("N");
}

// What runs: the suite, the cases chosen from it, and the shard.
void add_selection_options(CLI::App* command, CheckArguments& args) {
  command
      ->add_option("--suite", args.suite, "Conformance suite directory (default: the shipped one)")
      ->type_name("DIR");
  command->add_option("--filter", args.filters, "Run only cases whose id matches GLOB (repeatable)")
      ->type_name("GLOB");
  command->add_option("--rule", args.rules, "Run only cases about rule ID or GLOB (repeatable)")
      ->type_name("ID");
  command
      ->add_option("--device", args.devices,
                   "Run only live cases on DEVICE or its sub-devices (repeatable)")
      ->type_name("DEVICE");
  command
      ->add_option("--cell", args.cells,
                   "Run only the cases of the matrix cell NAME (c-order, dtype-bool, ...) of a "
                   "Python library under test (repeatable)")
      ->type_name("NAME");
  command->add_option("--shard", args.shard, "Run shard I of N (I/N) of the selected cases")
      ->check(shard_syntax())
      ->type_name("I/N");
  command->add_flag("--vectors-only", args.vectors_only,
                    "Run the conformance vectors alone: no live case, no device needed");
  command->add_flag("--allow-empty", args.allow_empty,
                    "Selecting no case, or finding no device, is not an error");
  command->add_flag("--list", args.list, "Print the ids of the selected cases and exit");
}

// What the gate expects: strictness, required features and devices, the
// expectation files, and the machine's label in the report.
void add_gate_options(CLI::App* command, CheckArguments& args) {
  command->add_flag("--strict", args.strict,
                    "Fail the gate on warnings too (a case whose worst finding is a warning)");
  command
      ->add_option("--require", args.required_features,
                   "With a consumer under test: a clean decline of a case needing FEATURE "
                   "(size0, negative-strides, bool, host-usm, legacy, ...) fails (repeatable)")
      ->type_name("FEATURE");
  command
      ->add_option("--require-device", args.required_devices,
                   "Exit 3 unless DEVICE (a name, glob, or 'usm') is present (repeatable)")
      ->type_name("DEVICE");
  command
      ->add_option("--baseline", args.baselines, "File of case ids expected to fail (repeatable)")
      ->type_name("FILE");
  command->add_option("--flakes", args.flakes, "File of case ids allowed to be flaky (repeatable)")
      ->type_name("FILE");
  command
      ->add_option("--label", args.label,
                   "Name this run's machine in the report, for 'report merge' of several machines")
      ->check(label_syntax())
      ->type_name("NAME");
  add_gate_output_options(*command, args.outputs);
  add_summary_detail_options(*command, args.outputs);
  command
      ->add_option("--stream", args.outputs.stream,
                   "Stream one JSON line per finished case to FILE (default: results.jsonl "
                   "beside --report)")
      ->type_name("FILE");
}

// How cases run: their time limit, parallelism, the runtime, and the
// libraries under test.
void add_timing_options(CLI::App* command, CheckArguments& args) {
  command
      ->add_option("--timeout", args.timeout_s,
                   "Seconds a case may run before it is killed (default 60)")
      ->check(timeout_seconds())
      ->type_name("SECONDS");
  command->add_option("--jobs", args.jobs, "The most cases run at once (default: number of CPUs)")
      ->check(whole_number("a number of jobs", 0, kMaxJobs,
                           fmt::format("give 1 to {}, or 0 for one per CPU", kMaxJobs)))
      ->type_name("N");
  add_runtime_option(command, &args.runtime);
}

void add_run_options(CLI::App* command, CheckArguments& args) {
  add_timing_options(command, args);
  command
      ->add_option("--batch", args.batch,
                   fmt::format("Most cases one worker process runs (default {}; 1: a process per "
                               "case)",
                               suite::kDefaultBatchSize))
      ->check(whole_number("a number of cases", 1, kMaxBatch))
      ->type_name("N");
  command
      ->add_option("--producer", args.producer,
                   "Test the producer library LIB (plugin.h), or LIB:SYMBOL (a function "
                   "returning its DLPackExchangeAPI), instead of the built-in cases")
      ->type_name("LIB");
  command
      ->add_option("--consumer", args.consumer,
                   "Test the consumer library LIB (plugin.h), instead of the built-in cases")
      ->type_name("LIB");
  add_python_options(*command, args.python);
  command
      ->add_option("--stream-attempts", args.stream_attempts,
                   "With a producer under test: requests each stream case makes to catch a "
                   "race (default 16)")
      ->check(whole_number("a number of attempts", 1, 100000))
      ->type_name("N");
}

}  // namespace dlpack_usm::cli
