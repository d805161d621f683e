// What `check` was asked to do, once its command line is read: the one
// struct the gate, the recorder and the report's "options" take.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin/plugin_spec.hpp"
#include "suite/cases/producer/producer_stream.hpp"
#include "suite/model/selection.hpp"
#include "suite/runner/runner.hpp"

namespace dlpack_usm::suite {

// A library that hung or crashed on this many cases in a row is likely to
// do it on every case: at the default --timeout, with each hang re-run, five
// cost ten minutes per job; the rest would cost hours.
inline constexpr int kDefaultMaxConsecutiveHangs = 5;

struct CheckOptions {
  std::filesystem::path suite_dir;
  Selection selection;
  std::vector<std::string> required_devices;  // --require-device
  // --require: features whose clean declines fail (CaseSpec::features).
  std::vector<std::string> required_features;
  std::vector<std::filesystem::path> baselines;
  std::vector<std::filesystem::path> flakes;
  bool allow_empty = false;
  // --strict: a case that warns fails the gate (and a baseline may expect it).
  bool strict = false;
  std::chrono::milliseconds timeout{60000};
  int jobs = 1;
  // The most cases one worker process runs (1: a process per case).
  std::size_t batch_size = kDefaultBatchSize;
  // --max-failures: the run stops after this many failing cases (0: never).
  int max_failures = 0;
  // --max-consecutive-hangs: a library under test that hangs or crashes on
  // this many cases in a row is not tested further (0: never).
  int max_consecutive_hangs = kDefaultMaxConsecutiveHangs;
  std::vector<std::string> command_line;
  // --label: names the machine (or configuration) of this run, so that
  // `report merge` keeps the runs of different machines apart.
  std::string label;
  // Libraries under test: when given, check runs their cases only.
  std::vector<plugin::PluginSpec> plugins;
  // --stream-attempts: the requests each producer stream case makes.
  int stream_attempts = kDefaultStreamAttempts;
  nlohmann::json plugin_descriptions = nlohmann::json::array();
  // Python libraries are under test: --device and --cell name the devices
  // and cells of their cases ("cpu" is plain host memory there).
  bool values_from_cases = false;
};

}  // namespace dlpack_usm::suite
