// What `check` and `handoff` are told on their command lines: the run's
// arguments, the groups of options that set them (each command takes the
// groups it means), and the gate they run (check_command.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/check_outputs.hpp"
#include "cli/python_options.hpp"
#include "suite/gate/check_options.hpp"

namespace dlpack_usm::cli {

struct CheckArguments {
  std::string suite;
  std::vector<std::string> filters, rules, devices, cells, required_devices, baselines, flakes;
  std::vector<std::string> required_features;  // --require
  std::string shard;
  std::string label;
  bool allow_empty = false;
  bool strict = false;
  bool vectors_only = false;
  bool list = false;
  double timeout_s = 60;
  int jobs = 0;
  int batch = static_cast<int>(suite::kDefaultBatchSize);
  int max_failures = 0;
  int max_consecutive_hangs = suite::kDefaultMaxConsecutiveHangs;
  CheckOutputs outputs;  // --report, --junit, --failures (gate_outputs()) and --stream
  std::string producer, consumer;
  PythonOptions python;     // --python-producer, --python-consumer, --python-library, ...
  int stream_attempts = 0;  // 0: not given
  std::string runtime = "auto";
};

// The option groups (dlpack-usm-check(1) documents each).
void add_limit_options(CLI::App& command, CheckArguments& args);
void add_selection_options(CLI::App* command, CheckArguments& args);
void add_gate_options(CLI::App* command, CheckArguments& args);
void add_run_options(CLI::App* command, CheckArguments& args);
// --timeout, --jobs, --runtime alone (handoff's part of the run options).
void add_timing_options(CLI::App* command, CheckArguments& args);

// Runs the gate the arguments describe and returns its exit code.
int run_gate(const CheckArguments& args, const std::vector<std::string>& command_line);

}  // namespace dlpack_usm::cli
