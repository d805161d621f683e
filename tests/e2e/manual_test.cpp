// The manual keeps up with the command line: every command the binary offers
// has a page, and every option its --help lists is documented there.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

// Names listed under "Subcommands:" in CLI11's help text.
std::vector<std::string> subcommands_in(const std::string& help) {
  std::vector<std::string> names;
  std::size_t start = help.find("Subcommands:");
  if (start == std::string::npos) return names;
  std::istringstream lines(help.substr(start));
  std::string line;
  std::getline(lines, line);
  std::regex entry(R"(^  ([a-z][a-z0-9-]*)\b)");
  while (std::getline(lines, line) && !line.empty()) {
    std::smatch match;
    if (std::regex_search(line, match, entry)) names.push_back(match[1]);
  }
  return names;
}

std::vector<std::string> long_options_in(const std::string& help) {
  std::vector<std::string> options;
  std::regex option(R"(--([a-z][a-z0-9-]*))");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), option);
       it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[1];
    if (name != "help" && name != "version") options.push_back(name);
  }
  return options;
}

// The page's text with roff's escaped hyphens ("\-") made plain.
std::string read_page(const std::string& command) {
  std::ifstream page(source_path("man/dlpack-usm-" + command + ".1"));
  std::stringstream text;
  text << page.rdbuf();
  std::string plain = text.str();
  for (std::size_t at = plain.find("\\-"); at != std::string::npos; at = plain.find("\\-", at)) {
    plain.erase(at, 1);
  }
  return plain;
}

TEST(Manual, EveryCommandHasAPageDocumentingEveryOption) {
  ToolResult top = run_tool({"--help"});
  ASSERT_EQ(top.exit_code, 0);
  std::vector<std::string> commands = subcommands_in(top.out);
  ASSERT_FALSE(commands.empty()) << top.out;
  std::ifstream overview_file(source_path("man/dlpack-usm.1"));
  std::stringstream overview_text;
  overview_text << overview_file.rdbuf();
  for (const std::string& command : commands) {
    SCOPED_TRACE(command);
    std::string page = read_page(command);
    ASSERT_FALSE(page.empty()) << "man/dlpack-usm-" << command << ".1 is missing";
    EXPECT_NE(overview_text.str().find(".B " + command), std::string::npos)
        << "dlpack-usm(1) does not list " << command;
    ToolResult help = run_tool({command, "--help"});
    std::vector<std::vector<std::string>> invocations{{command}};
    for (const std::string& nested : subcommands_in(help.out)) {
      invocations.push_back({command, nested});
    }
    for (auto arguments : invocations) {
      arguments.push_back("--help");
      ToolResult nested_help = run_tool(arguments);
      EXPECT_EQ(nested_help.exit_code, 0);
      for (const std::string& option : long_options_in(nested_help.out)) {
        EXPECT_NE(page.find("--" + option), std::string::npos)
            << "option --" << option << " of '" << arguments[0] << "' is not in its man page";
      }
    }
  }
}

TEST(Manual, ExitCodesAreDocumentedInReadmeAndOverview) {
  std::ifstream readme(source_path("README.md"));
  std::stringstream text;
  text << readme.rdbuf();
  for (const char* row : {"| 0 |", "| 1 |", "| 2 |", "| 3 |", "| 4 |"}) {
    EXPECT_NE(text.str().find(row), std::string::npos) << row;
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
