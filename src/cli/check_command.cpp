// dlpack-usm check: the conformance suite and the CI gate. Runs the shipped
// vectors and the live cases, each isolated, and decides pass or fail with
// the baseline and flakes files; writes the JSON report, JUnit XML, a
// streamed results.jsonl and a failures file.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <system_error>
#include <thread>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "cli/check_arguments.hpp"
#include "cli/check_outputs.hpp"
#include "cli/check_progress.hpp"
#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "cli/library_options.hpp"
#include "cli/number_options.hpp"
#include "cli/python_options.hpp"
#include "cli/result_stream.hpp"
#include "cli/runtime_option.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "common/suggest.hpp"
#include "plugin/plugin_spec.hpp"
#include "report/formats/check_report.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/consumer/consumer_cases.hpp"
#include "suite/cases/plugin/plugin_probe.hpp"
#include "suite/cases/registry.hpp"
#include "suite/cases/vectors/vector_cases.hpp"
#include "suite/gate/exit_code.hpp"
#include "suite/gate/run_check.hpp"
#include "suite/gate/vacuous_run.hpp"
#include "suite/runner/stop_signals.hpp"
#include "suite/runner/worker_growth.hpp"
#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::cli {
namespace {

// --require names features of the consumer cases: refused without
// --consumer, and for a name no case carries (a typo would require nothing).
void require_known_features(const CheckArguments& args,
                            const std::vector<plugin::PluginSpec>& plugins,
                            const PythonLibraries& python) {
  bool consumer = std::any_of(plugins.begin(), plugins.end(), [](const plugin::PluginSpec& spec) {
    return spec.role == plugin::Role::consumer;
  });
  if (!consumer && !python.offers_usm()) {
    fail_usage("--require names features of a consumer",
               "add --consumer LIB or --python-consumer EXPR");
  }
  std::vector<std::string> known = suite::consumer_features();
  for (const std::string& feature : args.required_features) {
    if (std::find(known.begin(), known.end(), feature) != known.end()) continue;
    fail_usage(fmt::format("--require {}: no consumer case needs this feature{}", feature,
                           did_you_mean(feature, known)),
               fmt::format("known features: {}", fmt::join(known, ", ")));
  }
}

// results.jsonl goes beside a report that is a file of its own: beside
// /dev/null or /dev/stdout it would be a file in /dev.
std::string default_stream_path(const std::string& report) {
  if (report.empty() || report == "-") return {};
  if (resolve_output(report, "--report").kind != OutputTarget::Kind::replace_atomically) return {};
  return (std::filesystem::path(report).parent_path() / "results.jsonl").string();
}

suite::CheckOptions check_options(const CheckArguments& args,
                                  const std::vector<std::string>& command_line) {
  suite::CheckOptions options;
  options.suite_dir = args.suite;
  options.selection.id_globs = args.filters;
  options.selection.rule_globs = args.rules;
  options.selection.devices = args.devices;
  options.selection.cells = args.cells;
  if (!args.shard.empty()) options.selection.shard = suite::parse_shard(args.shard);
  options.required_devices = args.required_devices;
  options.required_features = args.required_features;
  for (const auto& b : args.baselines) options.baselines.emplace_back(b);
  for (const auto& f : args.flakes) options.flakes.emplace_back(f);
  options.allow_empty = args.allow_empty;
  options.strict = args.strict;
  options.timeout = std::chrono::milliseconds(static_cast<long long>(args.timeout_s * 1000));
  options.batch_size = static_cast<std::size_t>(args.batch);
  options.max_failures = args.max_failures;
  options.max_consecutive_hangs = args.max_consecutive_hangs;
  options.jobs = args.jobs > 0
                     ? args.jobs
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.command_line = command_line;
  options.label = args.label;
  options.plugins = library_specs(args.producer, args.consumer);
  if (args.stream_attempts > 0) options.stream_attempts = args.stream_attempts;
  return options;
}

// What every worker of the tool's own cases in this run is started with: the
// runner's runtime, suite and libraries; it takes more cases on its channel.
suite::WorkerJob own_worker_job(const std::string& suite_dir,
                                const std::vector<plugin::PluginSpec>& plugins,
                                int stream_attempts) {
  suite::WorkerJob job;
  job.stream_attempts = stream_attempts;
  job.runtime = runtime::active_runtime_name();
  job.suite_dir = suite_dir;
  job.plugin_arguments = plugin::plugin_arguments(plugins);
  job.runner_pid = getpid();
  job.more_cases = true;
  return job;
}

// The argv of a worker that runs a batch of cases.
std::function<std::vector<std::string>(const std::vector<const suite::CaseSpec*>&)> worker_command(
    const std::string& self, const std::string& suite_dir,
    const std::vector<plugin::PluginSpec>& plugins, int stream_attempts) {
  suite::WorkerJob job = own_worker_job(suite_dir, plugins, stream_attempts);
  return [self, job](const std::vector<const suite::CaseSpec*>& batch) {
    suite::WorkerJob batch_job = job;
    std::set<std::string> sources;
    for (const suite::CaseSpec* spec : batch) {
      batch_job.case_ids.push_back(spec->id);
      sources.insert(spec->source);
    }
    batch_job.case_sources.assign(sources.begin(), sources.end());
    return suite::worker_argv(self, batch_job);
  };
}

// The gate's exit code, or 3 where a library under test exchanged nothing
// (suite/gate/vacuous_run.hpp) and --allow-empty does not allow it.
// A gate that failed keeps its exit code (1), the vacuous library noted.
int refuse_vacuous_run(const suite::CheckRun& run, bool allow_empty) {
  std::vector<suite::VacuousLibrary> vacuous = suite::vacuous_libraries(run);
  ExitCode gate = suite::decide_exit_code(run);
  if (vacuous.empty() || allow_empty) return static_cast<int>(gate);
  if (gate != ExitCode::ok) {
    print_note(suite::vacuous_message(vacuous));
    return static_cast<int>(gate);
  }
  print_error(suite::vacuous_message(vacuous),
              "check that the library makes arrays here (its devices, its constructors), or "
              "pass --allow-empty where a run that exchanges nothing is expected");
  return static_cast<int>(ExitCode::environment);
}

// Writes the outputs. A reader of the summary that went away (SIGPIPE,
// EPIPE) after the files were written costs nothing more than the summary.
void write_summary_unless_stopped(const suite::CheckRun& run, const CheckOutputs& outputs) {
  try {
    write_check_outputs(run, report::check_run_to_json(run), outputs);
  } catch (const std::system_error&) {
    if (suite::stop_signal() != SIGPIPE) throw;
  }
}

// check --list: the ids, one a line. A reader that went away (head) stops
// the listing as SIGPIPE would: exit 141.
int list_cases(suite::CaseSources& sources, const suite::Selection& selection,
               bool values_from_cases) {
  try {
    for (const suite::CaseSpec& spec :
         suite::collect_cases(sources, selection, values_from_cases).selected.to_run) {
      fmt::print("{}\n", printable(spec.id));
    }
    std::fflush(stdout);
  } catch (const std::system_error&) {
    if (suite::stop_signal() == 0) throw;
  }
  return suite::stop_signal() != 0 ? 128 + suite::stop_signal() : 0;
}

// The runtime chosen and started, its devices checked against what the
// options ask for, before any case runs. Python libraries share SYCL's
// handles where the runtime is SYCL (dpnp takes the tool's USM in SYCL's
// default contexts), as the bridge's offers do. `ahead` is called once the
// runtime has listed its devices (workers started ahead of the planning).
void check_devices(const CheckArguments& args, const suite::CheckOptions& options, bool python,
                   const std::function<void()>& ahead) {
  // --rule first: a typo there needs no device to be found.
  suite::require_known_filters(options.selection, nullptr);
  // The note on --runtime auto's choice is for runs that use a device.
  // A Python library's runs say nothing of it: the runtime offers its USM
  // (the report's environment names it), the library's own runtime is its.
  bool no_note = args.vectors_only || args.list || python ||
                 args.outputs.summary_detail == report::SummaryDetail::quiet;
  runtime::LibrariesUnderTest libraries = libraries_under_test(options.plugins);
  if (python && options.plugins.empty()) libraries = runtime::LibrariesUnderTest::sycl_handles;
  const runtime::Inventory& inventory = start_runtime(args.runtime, libraries, no_note).inventory();
  ahead();
  for (const std::string& warning : inventory.warnings) print_warning(warning);
  // Without devices the live cases cannot run: a run of the vectors alone
  // passes only when it was asked for (--vectors-only), or the user narrowed
  // the run (--filter, --allow-empty) and sees the problems as warnings.
  bool devices_optional = args.vectors_only || !args.filters.empty() || args.allow_empty || python;
  for (const std::string& problem : inventory.problems) {
    if (devices_optional) print_warning(problem);
  }
  if (!devices_optional) suite::require_live_devices(inventory);
  suite::require_devices(inventory, options.required_devices);
  bool by_inventory = !args.vectors_only && !options.values_from_cases;
  suite::require_known_filters(options.selection, by_inventory ? &inventory : nullptr);
}

// The run's first workers (the two any run starts, fewer with --jobs 1:
// suite/runner/worker_growth.hpp), started once this process has the
// runtime up: each starts it and lists every case while this process plans
// (the owner answers, the cases selected), then waits on its channel for its
// first batch. Not before: on the GPU machine a run whose sixteen workers
// and runner all brought the drivers up at once never ended (once; the
// cause was not found). Only for the tool's own live cases: vectors need no
// runtime, and a library under test is probed first.
std::vector<suite::ChildProcess> start_workers_ahead(const CheckArguments& args,
                                                     const suite::CheckOptions& options,
                                                     bool python, const std::string& self) {
  std::vector<suite::ChildProcess> waiting;
  if (args.vectors_only || args.list || !options.plugins.empty() || python) {
    return waiting;
  }
  suite::WorkerJob job =
      own_worker_job(options.suite_dir.string(), options.plugins, args.stream_attempts);
  job.ready_for_any_case = true;
  int ahead = std::min(options.jobs, static_cast<int>(suite::kWorkersAlwaysStarted));
  for (int i = 0; i < ahead && !suite::stop_requested(); ++i) {
    waiting.emplace_back(
        suite::worker_argv(self, job),
        std::max<std::chrono::milliseconds>(options.timeout, suite::kWorkerStartupTimeout),
        std::string(), suite::ChildProcess::Channel::takes_more);
  }
  return waiting;
}

// The tool's own cases (vectors and live round trips), or, with libraries
// under test, the runtime's owner answer and their cases alone.
suite::CaseSources case_sources_of(const CheckArguments& args, const suite::CheckOptions& options,
                                   const PythonLibraries& python) {
  if (args.vectors_only) return suite::vector_case_sources(options.suite_dir);
  if (options.plugins.empty() && !python.empty()) {
    // The runtime's owner answer decides verdicts on the USM the tool offers
    // (to a consumer, a library's consumer side), not on a producer's own.
    bool offers_usm = python.offers_usm();
    return offers_usm ? suite::library_case_sources({}, options.stream_attempts)
                      : suite::CaseSources{};
  }
  return suite::case_sources(options.suite_dir, options.plugins, options.stream_attempts);
}

// The combinations of options that ask for what no run can do: Error(usage)
// before anything starts.
void refuse_combinations(const CheckArguments& args, const suite::CheckOptions& options,
                         const PythonLibraries& python) {
  bool producer = std::any_of(options.plugins.begin(), options.plugins.end(),
                              [](const plugin::PluginSpec& spec) {
                                return spec.role == plugin::Role::producer && !spec.exchange_api();
                              });
  if (!options.required_features.empty()) require_known_features(args, options.plugins, python);
  if (args.stream_attempts > 0 && !producer && !python.has_producer()) {
    fail_usage("--stream-attempts counts the requests of a producer's stream cases",
               "add --producer LIB (a library of plugin.h) or --python-producer EXPR");
  }
  if (args.vectors_only && (!options.plugins.empty() || !python.empty())) {
    fail_usage("--vectors-only runs the conformance vectors, --producer and --consumer a library",
               "choose one");
  }
}

}  // namespace

int run_gate(const CheckArguments& args, const std::vector<std::string>& command_line) {
  // From here on a stop signal ends the run with its report, wherever it
  // comes: starting the runtime, probing the libraries, running the cases.
  suite::StopSignals stop_signals;
  suite::CheckOptions options = check_options(args, command_line);
  PythonLibraries python(python_targets(args.python, args.stream_attempts));
  refuse_combinations(args, options, python);
  options.values_from_cases = !python.empty();
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<suite::ChildProcess> waiting;
  check_devices(args, options, !python.empty(),
                [&] { waiting = start_workers_ahead(args, options, !python.empty(), self); });
  // A Python library is imported once before its cases are planned: what
  // it is, and the devices it has, decide them. Stopped there: no report.
  if (!python.empty() && !python.probe(self, options.suite_dir.string(), options.timeout,
                                       static_cast<std::size_t>(options.jobs))) {
    return 128 + suite::stop_signal();
  }
  suite::CaseSources sources = case_sources_of(args, options, python);
  python.add_sources(sources);
  if (args.list) return list_cases(sources, options.selection, options.values_from_cases);

  // Every output is checked before the first case runs: a refusal after a
  // long run would lose its verdict.
  CheckOutputs outputs = args.outputs;
  if (outputs.stream.empty()) outputs.stream = default_stream_path(outputs.report);
  require_writable_outputs(outputs);
  refuse_outputs_among_expectations(outputs, args.baselines, args.flakes);
  ResultStream stream(outputs.stream);

  if (!options.plugins.empty() && !suite::stop_requested()) {
    // Stopped during the probe: no case runs, and every one is reported not_run.
    options.plugin_descriptions =
        suite::probe_plugins(self, options.suite_dir, options.plugins, options.timeout)
            .value_or(nlohmann::json::array());
  }
  for (nlohmann::json& described : python.descriptions()) {
    options.plugin_descriptions.push_back(std::move(described));
  }
  suite::WorkerLaunch launch = python.launch(
      self, args.suite, worker_command(self, args.suite, options.plugins, args.stream_attempts));
  launch.waiting = std::move(waiting);
  CheckProgress progress;
  suite::CheckCallbacks callbacks = progress.callbacks();
  callbacks.on_case = [&stream](const suite::RecordedCase& recorded) { stream.write(recorded); };
  callbacks.on_warning = [](const std::string& warning) { print_warning(warning); };

  suite::CheckRun run = suite::run_check(options, sources, std::move(launch), callbacks);
  progress.finish();

  write_summary_unless_stopped(run, outputs);
  // A stopped run says which signal stopped it (dlpack-usm-check(1)).
  if (int signal = suite::stop_signal(); signal != 0) return 128 + signal;
  return refuse_vacuous_run(run, args.allow_empty);
}

void add_check_command(CLI::App& app, Invocation& invocation) {
  auto args = std::make_shared<CheckArguments>();
  auto* command = app.add_subcommand(
      "check", "Run the conformance vectors and the live cases on every USM device: the CI gate");
  add_selection_options(command, *args);
  add_gate_options(command, *args);
  add_run_options(command, *args);
  add_limit_options(*command, *args);
  // Every repeatable option takes one value per occurrence, as its help
  // says: a word after it is the front-ends' positional EXPR, not a second
  // value (python3 -m dlpack_usm consume --cell c-order numpy.from_dlpack).
  for (CLI::Option* option : command->get_options()) option->allow_extra_args(false);
  command->callback([args, &invocation] {
    if (args->suite.empty()) args->suite = suite::default_conformance_dir().string();
    invocation.exit_code = run_gate(*args, invocation.command_line);
  });
}

}  // namespace dlpack_usm::cli
