#include "cli/usage_hints.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/suggest.hpp"

namespace dlpack_usm::cli {
namespace {

// The commands people may type; the hidden ones (group "") are not offered.
std::vector<std::string> visible_command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (CLI::App* command :
       app.get_subcommands([](CLI::App* c) { return !c->get_group().empty(); })) {
    names.push_back(command->get_name());
  }
  return names;
}

std::vector<std::string> option_names(CLI::App& command) {
  std::vector<std::string> names{"--help"};
  for (CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

// The first option of `args` from `from` on that `command` does not know.
std::optional<std::string> unknown_option(CLI::App& command, const std::vector<std::string>& args,
                                          std::size_t from) {
  std::vector<std::string> known = option_names(command);
  for (std::size_t i = from; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (!args[i].starts_with("--")) continue;
    std::string name = args[i].substr(0, args[i].find('='));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    return fmt::format("unknown option '{}' of '{}'{}", name, command.get_name(),
                       did_you_mean(name, known));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> explain_usage_error(CLI::App& app,
                                               const std::vector<std::string>& args) {
  auto word = std::find_if(args.begin(), args.end(),
                           [](const std::string& arg) { return !arg.starts_with("-"); });
  if (word == args.end()) return std::nullopt;
  CLI::App* command = nullptr;
  try {
    command = app.get_subcommand(*word);
  } catch (const CLI::OptionNotFound&) {
    return fmt::format("unknown command '{}'{}", *word,
                       did_you_mean(*word, visible_command_names(app)));
  }
  std::size_t next = static_cast<std::size_t>(word - args.begin()) + 1;
  // A command with commands of its own ("report merge"): the option belongs there.
  if (next < args.size() && !command->get_subcommands([](CLI::App*) { return true; }).empty()) {
    try {
      command = command->get_subcommand(args[next]);
      ++next;
    } catch (const CLI::OptionNotFound&) {
      if (args[next].starts_with("-")) return std::nullopt;
      std::vector<std::string> names;
      for (CLI::App* sub : command->get_subcommands([](CLI::App*) { return true; })) {
        names.push_back(sub->get_name());
      }
      return fmt::format("unknown command '{} {}'{}", *word, args[next],
                         did_you_mean(args[next], names));
    }
  }
  return unknown_option(*command, args, next);
}

}  // namespace dlpack_usm::cli
