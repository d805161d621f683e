// Every rule id has one home: the catalog, with its constant in
// rules/rule_ids.hpp. The code outside src/rules/ names rules through those
// constants, never through a literal a typo could break.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "rules/rule.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::rules {
namespace {

TEST(RuleIds, TheConstantsAreTheCatalog) {
  std::set<std::string_view> constants(ids::kAll.begin(), ids::kAll.end());
  EXPECT_EQ(constants.size(), ids::kAll.size()) << "an id has two constants";
  std::set<std::string_view> catalog;
  for (const RuleInfo& rule : rule_catalog()) catalog.insert(rule.id);
  EXPECT_EQ(constants, catalog);
}

TEST(RuleIds, NoRuleIdLiteralOutsideTheRulesFolder) {
  const std::regex literal("\"DLP-[A-Z0-9]+(-[A-Z0-9]+)*\"");
  std::filesystem::path source = std::filesystem::path(DLPACK_USM_SOURCE_DIR) / "src";
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source)) {
    if (!entry.is_regular_file() || entry.path().parent_path().filename() == "rules") continue;
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    std::string content = text.str();
    for (std::sregex_iterator it(content.begin(), content.end(), literal), end; it != end; ++it) {
      found.push_back(entry.path().lexically_relative(source).string() + ": " + it->str());
    }
  }
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
}

}  // namespace
}  // namespace dlpack_usm::rules
