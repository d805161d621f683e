// dlpack-usm worker: the hidden subcommand `check` runs its workers as (the
// runner's children, suite/runner/worker_protocol.hpp): one runs a batch of
// cases, the plugin probe loads the libraries under test and describes
// them. Both answer on the result channel only, errors included, so the
// runner never reads their stderr for a verdict. Not for people: its options
// may change with any release.
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/library_options.hpp"
#include "cli/runtime_option.hpp"
#include "common/error.hpp"
#include "suite/cases/plugin/plugin_probe.hpp"
#include "suite/cases/producer/producer_stream.hpp"
#include "suite/cases/python/python_worker.hpp"
#include "suite/cases/registry.hpp"
#include "suite/runner/result_channel.hpp"
#include "suite/runner/runner.hpp"
#include "suite/runner/worker_containment.hpp"
#include "suite/runner/worker_protocol.hpp"
#include "suite/runner/worker_run.hpp"

namespace dlpack_usm::cli {
namespace {

struct WorkerArguments {
  std::string suite;
  std::string runtime = "auto";
  std::string producer, consumer;
  std::vector<std::string> case_ids;
  std::vector<std::string> case_sources;
  int stream_attempts = suite::kDefaultStreamAttempts;
  long runner_pid = 0;
  bool describe_libraries = false;
  bool more_cases = false;
  bool ready_for_any_case = false;
  suite::PythonSetup python;  // a Python worker: becomes this interpreter
};

int run_task(const WorkerArguments& args, suite::ResultChannel& channel) {
  std::vector<plugin::PluginSpec> specs = library_specs(args.producer, args.consumer);
  // The runner hands its workers the runtime it chose: only "auto" (a worker
  // started by hand) asks the libraries which handles they take.
  auto start = [&args, &specs] {
    start_runtime(
        args.runtime,
        args.runtime == "auto" ? libraries_under_test(specs) : runtime::LibrariesUnderTest::none,
        true);
  };
  if (args.describe_libraries) {
    start();
    return suite::describe_plugins_in_child(channel, specs);
  }
  suite::CaseSources sources = suite::case_sources(args.suite, specs, args.stream_attempts);
  return suite::run_cases_in_child(
      channel, sources, args.case_ids,
      {start, args.ready_for_any_case, args.more_cases, args.case_sources});
}

// A Python worker, contained, becomes the interpreter: the channel on
// descriptor 3 and the batch on stdin are still unread, for it to take.
// Only a failed exec comes back, and is said on the channel.
int become_python_worker(const WorkerArguments& args) {
  suite::exec_python_worker(args.python);
  std::string why = std::strerror(errno);
  suite::ResultChannel channel = suite::ResultChannel::take_inherited();
  Error error(ExitCode::environment,
              fmt::format("cannot run the Python interpreter {}: {}", args.python.interpreter, why),
              "name an interpreter that exists with --python (the one with the library under "
              "test installed)");
  channel.send(suite::error_line(error));
  throw error;
}

int run_worker(const WorkerArguments& args) {
  // A worker dies with the run that started it, also when that run is
  // killed with SIGKILL, and so does every process a library under test
  // starts in it; one whose run is already gone does not start.
  if (!suite::contain_worker(args.runner_pid)) return 1;
  if (!args.python.interpreter.empty()) return become_python_worker(args);
  // Before any library is loaded: the channel moves out of its way.
  suite::ResultChannel channel = suite::ResultChannel::take_inherited(
      args.more_cases ? suite::ResultChannel::Direction::both
                      : suite::ResultChannel::Direction::send_only);
  try {
    int status = run_task(args, channel);
    suite::reap_worker_leftovers();
    return status;
  } catch (const Error& error) {
    // The runner repeats it from the channel; main() prints it for people.
    channel.send(suite::error_line(error));
    throw;
  } catch (const std::exception& error) {
    channel.send(
        suite::error_line(Error(ExitCode::internal, std::string("internal error: ") + error.what(),
                                "this is a bug of dlpack-usm; please report it with the "
                                "command line")));
    throw;
  }
}

}  // namespace

void add_worker_command(CLI::App& app, Invocation& invocation) {
  auto args = std::make_shared<WorkerArguments>();
  auto* command = app.add_subcommand(suite::kWorkerCommand, "Internal: a worker of check");
  command->group("");  // hidden: check starts it, people do not
  command->add_option("--suite", args->suite)->required();
  add_runtime_option(command, &args->runtime);
  command->add_option("--producer", args->producer);
  command->add_option("--consumer", args->consumer);
  command->add_option("--run-case", args->case_ids);
  command->add_option("--case-source", args->case_sources);
  command->add_option("--stream-attempts", args->stream_attempts);
  command->add_option("--runner-pid", args->runner_pid)->required();
  command->add_flag("--describe-libraries", args->describe_libraries);
  command->add_flag("--more-cases", args->more_cases);
  command->add_flag("--ready-for-any-case", args->ready_for_any_case);
  command->add_option("--python", args->python.interpreter);
  command->add_option("--python-package", args->python.package_dir);
  command->callback([args, &invocation] { invocation.exit_code = run_worker(*args); });
}

}  // namespace dlpack_usm::cli
