// check's options for Python libraries under test (--python-producer EXPR,
// --python-consumer EXPR, --python-library MODULE and how to run them), and
// what `check` does with them around the one runner: probe each library
// once, add its case sources, and start its cases' workers as Python
// workers (suite/cases/python). The front-ends of `python -m dlpack_usm`
// (check, consume, profile) run `dlpack-usm check` with these options.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "suite/cases/python/python_target.hpp"
#include "suite/model/case.hpp"
#include "suite/runner/runner.hpp"

namespace dlpack_usm::cli {

struct PythonOptions {
  std::vector<std::string> producers;  // --python-producer EXPR
  std::vector<std::string> consumers;  // --python-consumer EXPR
  std::vector<std::string> libraries;  // --python-library MODULE
  std::vector<std::string> handoffs;   // --python-handoff PRODUCER CONSUMER, in pairs
  bool remedies = false;               // the handoffs try the remedies too (handoff)
  bool every_cell = true;   // a handoff of a producer MODULE: every cell, else the reference
  std::string interpreter;  // --python
  std::string max_version = "1.3";           // --max-version
  bool no_consumer_probe = false;            // --no-consumer-probe
  std::string side;                          // --side producer|consumer: one side of a library
  std::vector<std::string> library_devices;  // --library-device
  // The front-ends of `python -m dlpack_usm` hand the library as a
  // positional argument where their users wrote it (before or after the
  // options), with --python-role saying what it is.
  std::string role;                  // --python-role producer|consumer|library|handoff
  std::vector<std::string> targets;  // the positional EXPR or MODULE

  bool any() const {
    return !producers.empty() || !consumers.empty() || !libraries.empty() || !handoffs.empty();
  }
};

void add_python_options(CLI::App& command, PythonOptions& options);

// The libraries the options name; Error(usage) for options that need one
// that is not there (--side without --python-library, ...).
std::vector<suite::PythonTarget> python_targets(const PythonOptions& options, int stream_attempts);

// The Python libraries of one check run: probed, then their case sources.
class PythonLibraries {
 public:
  explicit PythonLibraries(std::vector<suite::PythonTarget> targets)
      : targets_(std::move(targets)) {}

  bool empty() const { return targets_.empty(); }
  // Whether a Python producer (EXPR) is under test; whether the tool offers
  // its USM to one (a consumer, a library's consumer side).
  bool has_producer() const;
  bool offers_usm() const;
  // Probes each library (python_probe.hpp), `jobs` at once; false when a
  // stop signal ended a probe. Throws the first probe's Error in their order.
  bool probe(const std::string& self, const std::string& suite_dir,
             std::chrono::milliseconds case_timeout, std::size_t jobs);
  // Their case sources, appended to `sources`.
  void add_sources(suite::CaseSources& sources) const;
  // What the report's "plugins" says of each (role, interface "python", name,
  // version, the text under test, the packages and devices it saw).
  nlohmann::json descriptions() const;
  // The worker launch: Python workers for their cases, `own` for the rest.
  suite::WorkerLaunch launch(const std::string& self, const std::string& suite_dir,
                             suite::BatchFunction own) const;

 private:
  std::vector<suite::PythonTarget> targets_;
  std::vector<nlohmann::json> described_;
};

}  // namespace dlpack_usm::cli
