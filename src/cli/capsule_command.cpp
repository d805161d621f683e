// dlpack-usm capsule dump|check: what a capsule file says, field by field,
// and which rules its tensors break.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "capsule/capsule_file.hpp"
#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "common/error.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/findings_report.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::cli {
namespace {

void add_dump(CLI::App& capsule, Outcome& outcome) {
  auto* command = capsule.add_subcommand(
      "dump",
      "Print every field of every tensor of a capsule file, with names for enum values "
      "and derived facts (element count, byte extent, contiguity, alignment)");
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  command->add_option("FILE", *file, "Capsule file (JSON object, array of objects, or JSON lines)")
      ->required();
  command->add_flag("--json", *json, "Print one JSON document instead of text");
  command->callback([&outcome, file, json] {
    // Tensor by tensor, each written as soon as it is read: a large file is
    // never held (capsule::for_each_capsule_tensor).
    std::optional<StreamedJsonArray> document;
    if (*json) document.emplace(nlohmann::ordered_json{{"file", *file}}, "tensors");
    bool first = true;
    capsule::for_each_capsule_tensor(*file, [&](facts::TensorFacts&& tensor) {
      report::CapsuleDump one = report::build_capsule_dump(*file, {std::move(tensor)});
      if (document) {
        document->add(report::capsule_dump_to_json(one).at("tensors").at(0));
      } else {
        fmt::print("{}{}", first ? "" : "\n", report::capsule_dump_to_text(one));
      }
      first = false;
    });
    if (document) document->finish();
    outcome.exit_code = static_cast<int>(ExitCode::ok);
  });
}

// A file that cannot be read is reported and the others are still checked;
// the exit code then says "input error" (2) whatever the findings were.
report::FileFindings check_file(const std::string& file) {
  report::FileFindings result{file, {}, {}};
  try {
    // Streamed: only the findings of each tensor stay, not its text or facts.
    capsule::for_each_capsule_tensor(file, [&](facts::TensorFacts&& tensor) {
      std::vector<rules::Finding> findings = rules::evaluate(tensor);
      result.tensors.push_back({std::move(tensor.origin), std::move(findings)});
    });
  } catch (const Error& error) {
    if (error.code() != ExitCode::usage) throw;
    print_error(error.what(), error.hint());
    result.tensors.clear();
    result.error = report::FileError{error.what(), error.hint()};
  }
  return result;
}

void add_check(CLI::App& capsule, Outcome& outcome) {
  auto* command = capsule.add_subcommand(
      "check", "Run the rule catalog on every tensor of the capsule files and print the findings");
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto strict = std::make_shared<bool>(false);
  command->add_option("FILE", *files, "Capsule files")->required();
  command->add_flag("--json", *json, "Print one JSON document instead of text");
  command->add_flag("--strict", *strict, "Fail (exit 1) on warnings as well as on errors");
  command->callback([&outcome, files, json, strict] {
    std::vector<report::FileFindings> checked;
    for (const std::string& file : *files) checked.push_back(check_file(file));
    report::FindingsReport report = report::make_findings_report(std::move(checked), *strict);
    print_report(*json, [&report](report::Printer& printer) {
      report::print_findings_report(printer, report);
    });
    outcome.exit_code = report.exit_code;
  });
}

}  // namespace

void add_capsule_command(CLI::App& app, Outcome& outcome) {
  auto* capsule = app.add_subcommand(
      "capsule", "Read capsule files (DLPack tensors written down as JSON): dump or check them");
  capsule->require_subcommand(1);
  add_dump(*capsule, outcome);
  add_check(*capsule, outcome);
}

}  // namespace dlpack_usm::cli
