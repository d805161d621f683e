// dlpack-usm handoff PRODUCER CONSUMER: can library A hand this tensor to
// library B, and whose fault is it when it cannot? The gate of `check`
// (dlpack-usm check --python-handoff PRODUCER CONSUMER) with the remedies
// tried too, told as a story (report/handoff_story.hpp); its exit codes,
// report, JUnit and baselines are check's.
#include <fmt/format.h>

#include "cli/check_arguments.hpp"
#include "cli/commands.hpp"
#include "common/error.hpp"
#include "report/handoff_story.hpp"
#include "suite/cases/registry.hpp"

namespace dlpack_usm::cli {
namespace {

struct HandoffArguments {
  CheckArguments check;
  std::string producer, consumer;
  bool json = false;
  bool every_cell = false;
};

void add_handoff_options(CLI::App* command, HandoffArguments& args) {
  command
      ->add_option("PRODUCER", args.producer,
                   "The producer: an EXPR giving an array (\"dpnp.ones(4)\"), or a MODULE "
                   "(dpnp, torch) whose arrays are made for you")
      ->required();
  command
      ->add_option("CONSUMER", args.consumer,
                   "The consumer: an EXPR giving a callable (torch.from_dlpack), or a MODULE "
                   "whose from_dlpack is called")
      ->required();
  command->add_flag("--json", args.json,
                    "Print the handoff as one JSON document (dlpack-usm.handoff/1) on stdout");
  command
      ->add_option("--cell", args.check.cells,
                   "With a producer MODULE: hand over the array of cell NAME (c-order, f-order, "
                   "dtype-float16, ...; default c-order) (repeatable)")
      ->type_name("NAME");
  command->add_flag("--every-cell", args.every_cell,
                    "With a producer MODULE: hand over the array of every cell");
  command
      ->add_option("--library-device", args.check.python.library_devices,
                   "With a producer MODULE: make its arrays on DEVICE, passed as device=DEVICE "
                   "(torch: cuda:0) (repeatable)")
      ->type_name("DEVICE");
  command
      ->add_option("--python", args.check.python.interpreter,
                   "The interpreter of both libraries (default: the one that started python -m "
                   "dlpack_usm, else scripts/setup.sh's, else python3)")
      ->type_name("INTERP");
  command->add_flag("--allow-empty", args.check.allow_empty,
                    "A handoff that runs no case is not an error");
}

int run_handoff(HandoffArguments& args, const std::vector<std::string>& command_line) {
  if (args.json && args.check.outputs.report == "-") {
    fail_usage("--json and --report - both want stdout", "keep --json, or give --report a file");
  }
  if (args.every_cell && !args.check.cells.empty()) {
    fail_usage("--every-cell and --cell both choose the cells", "give one of them");
  }
  args.check.python.handoffs = {args.producer, args.consumer};
  args.check.python.remedies = true;
  // A producer MODULE's reference cell alone, unless cells are asked for.
  args.check.python.every_cell = args.every_cell || !args.check.cells.empty();
  args.check.outputs.story = report::handoff_story;
  if (args.json) args.check.outputs.document = report::handoff_document;
  args.check.suite = suite::default_conformance_dir().string();
  return run_gate(args.check, command_line);
}

}  // namespace

void add_handoff_command(CLI::App& app, Invocation& invocation) {
  auto args = std::make_shared<HandoffArguments>();
  auto* command = app.add_subcommand(
      "handoff",
      "Hand a tensor of one library to another: what each did, whose fault a failure is, and "
      "which remedy works");
  add_handoff_options(command, *args);
  add_gate_options(command, args->check);
  // The consumer matrix's features mean nothing to one tensor handed over.
  command->remove_option(command->get_option("--require"));
  add_timing_options(command, args->check);
  for (CLI::Option* option : command->get_options()) option->allow_extra_args(false);
  command->callback(
      [args, &invocation] { invocation.exit_code = run_handoff(*args, invocation.command_line); });
}

}  // namespace dlpack_usm::cli
