// dlpack-usm capsule dump|check: what a capsule file says, field by field,
// and which rules its tensors break.
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "capsule/capsule_file.hpp"
#include "capsule/evaluated_tensors.hpp"
#include "cli/color_option.hpp"
#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/envelope.hpp"
#include "report/findings_report.hpp"
#include "report/formats/sarif.hpp"
#include "report/json_stream_printer.hpp"
#include "report/status_colors.hpp"
#include "report/text_printer.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::cli {
namespace {

void add_dump(CLI::App& capsule, Invocation& invocation) {
  auto* command = capsule.add_subcommand(
      "dump",
      "Print every field of every tensor of a capsule file, with names for enum values "
      "and derived facts (element count, byte extent, contiguity, alignment)");
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  command->add_option("FILE", *file, "Capsule file (JSON object, array of objects, or JSON lines)")
      ->required()
      ->type_name("");
  command->add_flag("--json", *json, "Print one JSON document instead of text");
  command->callback([&invocation, file, json] {
    // Tensor by tensor, each written as soon as it is read: a large file is
    // never held (capsule::for_each_capsule_tensor).
    std::optional<report::JsonStreamPrinter> document;
    if (*json) {
      document.emplace(stdout);
      report::print_envelope(*document, report::kCapsuleDumpSchema);
      document->data("file", *file);
      document->begin_list("tensors");
    }
    bool first = true;
    capsule::for_each_capsule_tensor(*file, [&](facts::TensorFacts&& tensor) {
      report::CapsuleDump one = report::build_capsule_dump(*file, {std::move(tensor)});
      if (document) {
        document->data({}, report::capsule_dump_to_json(one).at("tensors").at(0));
      } else {
        fmt::print("{}{}", first ? "" : "\n", report::capsule_dump_to_text(one));
      }
      first = false;
    });
    if (document) {
      document->end_list();
      document->finish();
    }
    invocation.exit_code = static_cast<int>(ExitCode::ok);
  });
}

struct CapsuleCheckArguments {
  std::vector<std::string> files;
  bool json = false;
  bool strict = false;
  std::string sarif;  // --sarif FILE
  ColorMode color = ColorMode::automatic;
};

// Checks one file tensor by tensor, each tensor's findings handed to the
// walk (and to the SARIF log, where one is written) as soon as they are
// known, in file order; the JSON lines of a capture are judged on every
// core (capsule/evaluated_tensors.hpp). A file that cannot be read (or
// stops being readable) is reported after the tensors before the problem,
// and the other files are still checked; the exit code then says "input
// error" (2).
void check_file(const std::string& file, report::FindingsWalk& walk, report::SarifLog* sarif,
                const std::function<void()>& after_tensor) {
  walk.begin_file(file);
  auto check_tensor = [&](const capsule::EvaluatedTensor& tensor) {
    if (sarif != nullptr) sarif->add_tensor(file, tensor.place, tensor.findings);
    walk.tensor(tensor.origin, tensor.findings);
    after_tensor();
  };
  std::optional<report::FileError> problem;
  try {
    // Only SARIF needs to know where each field lies.
    capsule::for_each_evaluated_tensor(file, check_tensor, sarif != nullptr);
  } catch (const Error& error) {
    if (error.code() != ExitCode::usage) throw;
    print_error(error.what(), error.hint());
    problem = report::FileError{error.what(), error.hint()};
    if (sarif != nullptr) sarif->add_file_error(file, *problem);
  }
  walk.end_file(problem);
}

constexpr std::size_t kDrainBytes = std::size_t{64} << 10;

// Walks every file onto stdout as it goes: JSON through the streaming
// printer, text through a text printer drained once it holds 64 KiB.
// Neither holds more than that and one tensor's findings (the SARIF log
// holds the findings of all, without the tensors).
int check_files(const CapsuleCheckArguments& args, report::SarifLog* sarif) {
  if (args.json) {
    report::JsonStreamPrinter printer(stdout);
    report::FindingsWalk walk(printer, args.strict);
    for (const std::string& file : args.files) check_file(file, walk, sarif, [] {});
    int exit_code = walk.finish();
    printer.finish();
    return exit_code;
  }
  report::TextPrinter printer;
  // Asked once: a terminal stays a terminal for the run.
  bool color = use_color(args.color, stdout);
  std::string text;
  auto drain = [&printer, &text, color] {
    printer.take_text(text);
    if (color) text = report::color_status_words(text);
    std::fwrite(text.data(), 1, text.size(), stdout);
  };
  // Written out in pieces of about 64 KiB, where a write a tensor would
  // cost more than printing it; tensor by tensor on a terminal, where a
  // person reads them as they come, before any error on stderr.
  std::size_t drain_at = isatty(fileno(stdout)) != 0 ? 0 : kDrainBytes;
  auto drain_grown = [&printer, &drain, drain_at] {
    if (printer.text_size() >= drain_at) drain();
  };
  report::FindingsWalk walk(printer, args.strict);
  for (const std::string& file : args.files) {
    check_file(file, walk, sarif, drain_grown);
    drain();
  }
  int exit_code = walk.finish();
  drain();
  std::fflush(stdout);
  return exit_code;
}

// The check, and its SARIF log where one was asked for: its path is checked
// before any file is read, and the log written (atomically) after the last.
int check_capsules(const CapsuleCheckArguments& args) {
  if (args.sarif.empty()) return check_files(args, nullptr);
  if (args.sarif == "-") {
    fail_usage("--sarif -: standard output carries the findings",
               "give --sarif a file (it is replaced), e.g. --sarif capsules.sarif");
  }
  resolve_output(args.sarif, "--sarif");
  std::vector<NamedInput> inputs;
  for (const std::string& file : args.files) inputs.push_back({"a capsule file it checks", file});
  refuse_output_among_inputs(
      "--sarif", args.sarif, inputs,
      "write the SARIF log beside the capsule files, under a name of its own");
  report::SarifLog sarif;
  int exit_code = check_files(args, &sarif);
  write_file_atomically(args.sarif, sarif.text(), "--sarif");
  return exit_code;
}

void add_check(CLI::App& capsule, Invocation& invocation) {
  auto* command = capsule.add_subcommand(
      "check", "Run the rule catalog on every tensor of the capsule files and print the findings");
  auto args = std::make_shared<CapsuleCheckArguments>();
  command->add_option("FILE", args->files, "Capsule files")->required()->type_name("");
  command->add_flag("--json", args->json, "Print one JSON document instead of text");
  command->add_flag("--strict", args->strict, "Fail (exit 1) on warnings as well as on errors");
  command
      ->add_option("--sarif", args->sarif,
                   "Also write the findings to FILE as a SARIF 2.1.0 log (GitHub code "
                   "scanning), each at its capsule file, line and JSON pointer")
      ->type_name("FILE");
  add_color_option(*command, args->color);
  command->callback([&invocation, args] { invocation.exit_code = check_capsules(*args); });
}

}  // namespace

void add_capsule_command(CLI::App& app, Invocation& invocation) {
  auto* capsule = app.add_subcommand(
      "capsule", "Read capsule files (DLPack tensors written down as JSON): dump or check them");
  capsule->require_subcommand(1);
  add_dump(*capsule, invocation);
  add_check(*capsule, invocation);
}

}  // namespace dlpack_usm::cli
