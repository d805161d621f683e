#include "cli/python_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/python/python_consumer_cases.hpp"
#include "suite/cases/python/python_handoff_cases.hpp"
#include "suite/cases/python/python_probe.hpp"
#include "suite/cases/python/python_producer_cases.hpp"
#include "suite/cases/python/python_profile_cases.hpp"
#include "suite/cases/python/python_worker.hpp"

namespace dlpack_usm::cli {
namespace {

using suite::PythonRole;
using suite::PythonTarget;

void add_library_options(CLI::App& command, PythonOptions& options) {
  command
      .add_option("--python-producer", options.producers,
                  "Test the Python producer EXPR gives (an object with __dlpack__, e.g. "
                  "\"numpy.ones(4)\") (repeatable)")
      ->type_name("EXPR");
  command
      .add_option("--python-consumer", options.consumers,
                  "Test the Python consumer EXPR gives (a callable, e.g. numpy.from_dlpack) "
                  "with the consumer matrix (repeatable)")
      ->type_name("EXPR");
  command
      .add_option("--python-library", options.libraries,
                  "Profile the Python array library MODULE (its array API namespace, e.g. "
                  "numpy, jax.numpy), both directions (repeatable)")
      ->type_name("MODULE");
  command
      .add_option("--python-handoff", options.handoffs,
                  "Hand the tensor of PRODUCER (EXPR, or a MODULE: one per cell) to CONSUMER "
                  "(EXPR, or a MODULE's from_dlpack) and judge both sides (repeatable)")
      ->type_size(2)
      ->type_name("PRODUCER CONSUMER");
}

// For the front-ends only (hidden): the library as a positional argument.
void add_front_end_options(CLI::App& command, PythonOptions& options) {
  command.add_option("--python-role", options.role)
      ->check(CLI::IsMember({"producer", "consumer", "library", "handoff"}))
      ->group("");
  command.add_option("python-target", options.targets)->group("");
}

void add_how_options(CLI::App& command, PythonOptions& options) {
  command
      .add_option("--python", options.interpreter,
                  "The interpreter of the Python libraries (default: the one that started python "
                  "-m dlpack_usm, else scripts/setup.sh's, else python3)")
      ->type_name("INTERP");
  command
      .add_option("--max-version", options.max_version,
                  "With --python-producer: the max_version __dlpack__ is asked with (default 1.3)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              dlpack::require_max_version(text, "--max-version");
            } catch (const Error& error) {
              return error.what();
            }
            return {};
          },
          ""))
      ->type_name("MAJOR.MINOR");
  command.add_flag("--no-consumer-probe", options.no_consumer_probe,
                   "With --python-producer: no real consumer takes a capsule at the end");
  command
      .add_option("--side", options.side,
                  "With --python-library: profile one direction only (producer: __dlpack__; "
                  "consumer: from_dlpack)")
      ->check(CLI::IsMember({"producer", "consumer"}).description(""))
      ->type_name("SIDE");
  command
      .add_option("--library-device", options.library_devices,
                  "With --python-library: make the arrays on this device of the library, passed "
                  "as device=DEVICE (torch: cuda:0) (repeatable)")
      ->type_name("DEVICE");
}

}  // namespace

void add_python_options(CLI::App& command, PythonOptions& options) {
  add_library_options(command, options);
  add_how_options(command, options);
  add_front_end_options(command, options);
}

namespace {

// The positional EXPR or MODULE of a front-end, added to the option of its
// role; Error(usage) for a positional argument without a role (a word
// check takes no argument of) or a role without one.
PythonOptions with_positional(PythonOptions options) {
  if (options.targets.empty() && options.role.empty()) return options;
  if (options.role == "handoff") {
    if (options.targets.size() != 2) {
      fail_usage(fmt::format("a handoff names a PRODUCER and a CONSUMER; {} {} given",
                             options.targets.size(), options.targets.size() == 1 ? "was" : "were"),
                 "give both: dlpack-usm handoff \"numpy.ones(4)\" torch.from_dlpack (quote an "
                 "EXPR with spaces as one argument)");
    }
    options.handoffs.insert(options.handoffs.end(), options.targets.begin(), options.targets.end());
    return options;
  }
  if (options.role.empty()) {
    fail_usage(fmt::format("check takes no argument '{}'", options.targets.front()),
               "name what to run with an option: --filter GLOB, --python-consumer EXPR, ...");
  }
  const char* what = options.role == "library" ? "MODULE" : "EXPR";
  if (options.targets.empty()) {
    fail_usage(fmt::format("no {} names the {} to test", what, options.role),
               fmt::format("give it: python3 -m dlpack_usm {} [OPTION...] {}",
                           options.role == "producer"   ? "check"
                           : options.role == "consumer" ? "consume"
                                                        : "profile",
                           what));
  }
  if (options.targets.size() > 1) {
    fail_usage(fmt::format("one {} names the {} to test; {} were given: {}", what, options.role,
                           options.targets.size(), fmt::join(options.targets, ", ")),
               "quote an EXPR with spaces as one argument");
  }
  std::vector<std::string>& list = options.role == "producer"   ? options.producers
                                   : options.role == "consumer" ? options.consumers
                                                                : options.libraries;
  list.push_back(options.targets.front());
  return options;
}

}  // namespace

std::vector<PythonTarget> python_targets(const PythonOptions& given, int stream_attempts) {
  PythonOptions options = with_positional(given);
  if (!options.side.empty() && options.libraries.empty()) {
    fail_usage("--side chooses what of a library is profiled", "add --python-library MODULE");
  }
  if (!options.library_devices.empty() && options.libraries.empty() && options.handoffs.empty()) {
    fail_usage("--library-device names the devices a library makes its arrays on",
               "add --python-library MODULE, or a handoff of a producer MODULE");
  }
  if ((options.no_consumer_probe || options.max_version != "1.3") && options.producers.empty()) {
    fail_usage("--max-version and --no-consumer-probe say how a Python producer is asked",
               "add --python-producer EXPR");
  }
  suite::PythonSetup setup = suite::find_python_setup(options.interpreter);
  std::vector<PythonTarget> targets;
  auto add = [&](PythonRole role, const std::vector<std::string>& texts) {
    for (const std::string& text : texts) {
      if (text.empty())
        fail_usage("a Python library under test is named by an empty text",
                   "give an expression such as numpy.from_dlpack");
      PythonTarget target;
      target.role = role;
      target.text = text;
      target.setup = setup;
      target.max_version = options.max_version;
      target.consumer_probe = !options.no_consumer_probe;
      target.stream_attempts = stream_attempts;
      target.producer_side = options.side != "consumer";
      target.consumer_side = options.side != "producer";
      target.library_devices = options.library_devices;
      targets.push_back(std::move(target));
    }
  };
  add(PythonRole::producer, options.producers);
  add(PythonRole::consumer, options.consumers);
  add(PythonRole::library, options.libraries);
  for (std::size_t i = 0; i + 1 < options.handoffs.size(); i += 2) {
    add(PythonRole::handoff, {options.handoffs[i]});
    if (options.handoffs[i + 1].empty()) {
      fail_usage("a handoff's CONSUMER is an empty text", "give one such as torch.from_dlpack");
    }
    targets.back().consumer = options.handoffs[i + 1];
    targets.back().remedies = options.remedies;
    targets.back().every_cell = options.every_cell;
  }
  return targets;
}

bool PythonLibraries::has_producer() const {
  return std::any_of(targets_.begin(), targets_.end(), [](const PythonTarget& target) {
    return target.role == PythonRole::producer;
  });
}

bool PythonLibraries::offers_usm() const {
  return std::any_of(targets_.begin(), targets_.end(), [](const PythonTarget& target) {
    return target.role == PythonRole::consumer ||
           (target.role == PythonRole::library && target.consumer_side);
  });
}

bool PythonLibraries::probe(const std::string& self, const std::string& suite_dir,
                            std::chrono::milliseconds case_timeout, std::size_t jobs) {
  auto handoffs = std::count_if(targets_.begin(), targets_.end(), [](const PythonTarget& target) {
    return target.role == PythonRole::handoff;
  });
  std::optional<std::vector<suite::ProbeOutcome>> outcomes =
      suite::probe_pythons(self, suite_dir, targets_, case_timeout, jobs);
  if (!outcomes) return false;
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    suite::ProbeOutcome& outcome = (*outcomes)[i];
    if (outcome.error) {
      // In a pairwise run, two libraries that cannot share a process (their
      // imports crash, or one breaks the other's) are that pair's result,
      // not the end of the run; a single handoff's error stays an error.
      const Error& error = *outcome.error;
      bool pair_result = error.code() == ExitCode::environment || error.code() == ExitCode::usage;
      if (targets_[i].role != PythonRole::handoff || handoffs < 2 || !pair_result) throw error;
      outcome.described = nlohmann::json{
          {"name", nullptr}, {"version", nullptr}, {"probe_error", std::string(error.what())}};
    }
    described_.push_back(std::move(*outcome.described));
  }
  return true;
}

void PythonLibraries::add_sources(suite::CaseSources& sources) const {
  auto runtime = []() -> runtime::Runtime& { return runtime::active_runtime(); };
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    const PythonTarget& target = targets_[i];
    const nlohmann::json& described = described_.at(i);
    if (target.role == PythonRole::producer) {
      sources.push_back(std::make_unique<suite::PythonProducerCaseSource>(target));
    } else if (target.role == PythonRole::handoff) {
      sources.push_back(
          std::make_unique<suite::PythonHandoffCaseSource>(runtime, target, described));
    } else if (target.role == PythonRole::consumer) {
      sources.push_back(std::make_unique<suite::PythonConsumerCaseSource>(
          runtime, target, described, target.label()));
    } else {
      if (target.producer_side) {
        sources.push_back(
            std::make_unique<suite::PythonProfileCaseSource>(runtime, target, described));
      }
      if (target.consumer_side) {
        sources.push_back(std::make_unique<suite::PythonConsumerCaseSource>(
            runtime, target, described, target.label()));
      }
    }
  }
}

nlohmann::json PythonLibraries::descriptions() const {
  nlohmann::json all = nlohmann::json::array();
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    nlohmann::json entry = described_.at(i);
    entry["role"] = suite::to_string(targets_[i].role);
    entry["interface"] = "python";
    entry["path"] = targets_[i].text;
    entry["interpreter"] = targets_[i].setup.interpreter;
    if (targets_[i].role == PythonRole::handoff) entry["consumer_path"] = targets_[i].consumer;
    all.push_back(std::move(entry));
  }
  return all;
}

suite::WorkerLaunch PythonLibraries::launch(const std::string& self, const std::string& suite_dir,
                                            suite::BatchFunction own) const {
  std::map<std::string, PythonTarget> by_worker;
  for (const PythonTarget& target : targets_) by_worker.emplace(target.worker_key(), target);
  suite::WorkerLaunch launch;
  launch.command = [self, suite_dir, own = std::move(own),
                    by_worker](const std::vector<const suite::CaseSpec*>& batch) {
    auto python = by_worker.find(batch.front()->worker);
    if (python == by_worker.end()) return own(batch);
    return suite::python_worker_argv(self, python->second.setup, suite_dir, getpid());
  };
  // The tool's own workers take more cases on their channel; a Python
  // worker reads its batch on stdin, once.
  launch.takes_more = [by_worker](const std::vector<const suite::CaseSpec*>& batch) {
    return by_worker.find(batch.front()->worker) == by_worker.end();
  };
  launch.input = [by_worker](const std::vector<const suite::CaseSpec*>& batch) {
    auto python = by_worker.find(batch.front()->worker);
    return python == by_worker.end() ? std::string()
                                     : suite::python_batch_input(python->second, batch);
  };
  return launch;
}

}  // namespace dlpack_usm::cli
