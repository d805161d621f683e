// dlpack-usm: diagnostics and conformance checks for DLPack exchange of SYCL
// USM allocations. main() only wires the commands and maps failures to the
// documented exit codes.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <string_view>
#include <system_error>

#include <fmt/core.h>

#include "build_info.hpp"
#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "cli/usage_hints.hpp"
#include "common/error.hpp"
#include "suite/runner/worker_protocol.hpp"

namespace {

// The commands, in the order --help lists them: the main job first.
struct Command {
  std::string_view name;
  void (*add)(CLI::App&, dlpack_usm::cli::Invocation&);
};
constexpr Command kCommands[] = {
    {"check", dlpack_usm::cli::add_check_command},
    {"handoff", dlpack_usm::cli::add_handoff_command},
    {"list-devices", dlpack_usm::cli::add_list_devices_command},
    {"capsule", dlpack_usm::cli::add_capsule_command},
    {"rules", dlpack_usm::cli::add_rules_command},
    {"explain", dlpack_usm::cli::add_explain_command},
    {"report", dlpack_usm::cli::add_report_command},
    {"exchange", dlpack_usm::cli::add_exchange_command},
    {dlpack_usm::suite::kWorkerCommand, dlpack_usm::cli::add_worker_command},
};

// Where the first argument names a command, only that one is built: CLI11
// makes every option of every command it is given, a millisecond of a run as
// short as list-devices. Anything else (--help, --version, a typo) gets them
// all, for the whole help and the suggestions.
void add_commands(CLI::App& app, dlpack_usm::cli::Invocation& invocation, int argc, char** argv) {
  // Each command's help ends with the exit codes (a subcommand takes the
  // footer its parent has when it is added); the tool's own adds examples.
  const char* exit_codes =
      "Exit codes: 0 ok, 1 findings or gate failed, 2 usage or input error, "
      "3 environment error, 4 internal error. See dlpack-usm(1).";
  app.footer(exit_codes);
  std::string_view first = argc > 1 ? argv[1] : "";
  auto named = std::find_if(std::begin(kCommands), std::end(kCommands),
                            [first](const Command& command) { return command.name == first; });
  for (const Command& command : kCommands) {
    if (named == std::end(kCommands) || &command == named) command.add(app, invocation);
  }
  app.footer(fmt::format(
      "Examples:\n"
      "  dlpack-usm check --report report.json --junit junit.xml   the gate, on every device\n"
      "  dlpack-usm check --producer ./libmine.so                  test a DLPack producer\n"
      "  dlpack-usm list-devices                                   device ids and USM kinds\n"
      "\n{}",
      exit_codes));
}

bool is_lost_output(const std::error_code& code) {
  for (int lost : {ENOSPC, EIO, EPIPE, EBADF, EFBIG, EDQUOT}) {
    if (code.value() == lost) return true;
  }
  return false;
}

// Parses and runs the command; every failure becomes its documented exit
// code, with its message on stderr.
int run_command(CLI::App& app, int argc, char** argv, dlpack_usm::cli::Invocation& invocation) {
  using dlpack_usm::Error;
  using dlpack_usm::ExitCode;
  namespace cli = dlpack_usm::cli;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::vector<std::string> args(argv + 1, argv + argc);
    cli::print_error(cli::explain_usage_error(app, args).value_or(e.what()),
                     "run 'dlpack-usm --help' for the commands and their options");
    return static_cast<int>(ExitCode::usage);
  } catch (const Error& e) {
    cli::print_error(e.what(), e.hint());
    return static_cast<int>(e.code());
  } catch (const std::system_error& e) {
    // fmt's writes to stdout throw when the device is full or the pipe gone.
    if (!is_lost_output(e.code())) throw;
    cli::print_error(fmt::format("cannot write standard output: {}", e.what()),
                     "write it where there is room, or to a file with the command's options");
    return static_cast<int>(ExitCode::environment);
  } catch (const std::exception& e) {
    cli::print_error(fmt::format("internal error: {}", e.what()),
                     "this is a bug of dlpack-usm; please report it with the command line");
    return static_cast<int>(ExitCode::internal);
  }
  return invocation.exit_code;
}

// A sanitizer's leak check runs in the exit handlers, which a quick exit
// skips: those builds always run them.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kQuickExitAllowed = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kQuickExitAllowed = false;
#else
constexpr bool kQuickExitAllowed = true;
#endif
#else
constexpr bool kQuickExitAllowed = true;
#endif

}  // namespace

int main(int argc, char** argv) {
  using dlpack_usm::ExitCode;
  namespace cli = dlpack_usm::cli;

  CLI::App app{
      "dlpack-usm: check DLPack exchange of SYCL USM allocations (kDLOneAPI) on real devices",
      "dlpack-usm"};
  app.set_version_flag("--version", fmt::format("dlpack-usm {}", dlpack_usm::kToolVersion));
  app.require_subcommand(1);
  cli::Invocation invocation;
  invocation.command_line.assign(argv, argv + argc);
  add_commands(app, invocation, argc, argv);
  int code = run_command(app, argc, argv, invocation);
  // Output that could not be written (a full disk behind stdout or stderr,
  // 2>/dev/full) is no crash, but the exit code says it was lost.
  if (cli::output_lost() && code < static_cast<int>(ExitCode::usage)) {
    cli::print_error(
        "standard output or standard error could not be written: part of what "
        "this command printed is lost",
        "write it where there is room, or to a file with the command's options");
    return static_cast<int>(ExitCode::environment);
  }
  // output_lost() flushed stdout, and stderr is unbuffered: nothing the
  // command printed waits in a buffer when the process ends here.
  if (invocation.skip_runtime_teardown && kQuickExitAllowed) std::_Exit(code);
  return code;
}
