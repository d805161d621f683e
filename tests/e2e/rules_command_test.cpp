// `dlpack-usm rules` as a user runs it: the table, the JSON catalog and the
// family filter agree with each other and with the library's catalog.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rules/rule.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;

TEST(RulesCommand, JsonListsTheWholeCatalogWithSpecText) {
  ToolResult result = run_tool({"rules", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json doc = json::parse(result.out);
  EXPECT_EQ(doc["model_release"], "1.3");
  auto catalog = rules::rule_catalog();
  ASSERT_EQ(doc["rules"].size(), catalog.size());
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    const json& rule = doc["rules"][i];
    EXPECT_EQ(rule["rule_id"], std::string(catalog[i].id));
    EXPECT_EQ(rule["severity"], rules::to_string(catalog[i].severity));
    EXPECT_EQ(rule["reference"], std::string(catalog[i].reference));
    EXPECT_EQ(rule["normative"], std::string(catalog[i].normative));
    EXPECT_EQ(rule["quote"], std::string(catalog[i].quote));
    EXPECT_EQ(rule["rationale"], std::string(catalog[i].rationale));
    EXPECT_TRUE(rule["since"].is_string());
    EXPECT_TRUE(rule["until"].is_null() || rule["until"].is_string());
  }
}

TEST(RulesCommand, TextTableHasOneAlignedLinePerRule) {
  ToolResult result = run_tool({"rules"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::istringstream lines(result.out);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("ID", 0), 0u) << header;
  std::size_t severity_column = header.find("SEVERITY");
  ASSERT_NE(severity_column, std::string::npos);
  // BASIS: what the severity rests on ("can not" has a space in it).
  std::size_t basis_column = header.find("BASIS");
  std::size_t family_column = header.find("FAMILY");
  ASSERT_LT(severity_column, basis_column);
  ASSERT_LT(basis_column, family_column);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_EQ(line.rfind("DLP-", 0), 0u) << line;
    std::string severity =
        line.substr(severity_column, line.find(' ', severity_column) - severity_column);
    EXPECT_TRUE(rules::parse_severity(severity)) << line;
    std::string basis = line.substr(basis_column, family_column - basis_column);
    basis.erase(basis.find_last_not_of(' ') + 1);
    const rules::RuleInfo* rule = rules::find_rule(line.substr(0, line.find(' ')));
    ASSERT_NE(rule, nullptr) << line;
    EXPECT_EQ(basis, rule->normative) << line;
  }
  EXPECT_EQ(count, rules::rule_catalog().size());
  // The range of a rule that stopped applying and of one that still does.
  EXPECT_NE(result.out.find("0.1-1.1"), std::string::npos);
  EXPECT_NE(result.out.find("1.2+"), std::string::npos);
}

TEST(RulesCommand, FamilyFilterSelectsOneFamily) {
  ToolResult result = run_tool({"rules", "--json", "--family", "oneapi"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json doc = json::parse(result.out);
  ASSERT_FALSE(doc["rules"].empty());
  std::set<std::string> ids;
  for (const json& rule : doc["rules"]) {
    EXPECT_EQ(rule["family"], "oneapi");
    ids.insert(rule["rule_id"]);
  }
  EXPECT_TRUE(ids.count("DLP-ONEAPI-DEVICE-ID-SUB-DEVICE"));
}

TEST(RulesCommand, UnknownFamilyIsAUsageError) {
  ToolResult result = run_tool({"rules", "--family", "strides"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(result.out.empty());
  EXPECT_NE(result.err.find("unknown rule family 'strides'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("oneapi"), std::string::npos) << result.err;
}

// The table of dlpack-usm-rules(1) lists every rule with the severity and
// normative word the catalog gives it, so the page cannot drift.
TEST(RulesCommand, ManPageTableMatchesTheCatalog) {
  std::ifstream page(std::string(DLPACK_USM_SOURCE_DIR) + "/man/dlpack-usm-rules.1");
  ASSERT_TRUE(page) << "cannot open man/dlpack-usm-rules.1";
  std::map<std::string, std::pair<std::string, std::string>> table;
  std::string line;
  while (std::getline(page, line)) {
    if (line.rfind("DLP\\-", 0) != 0) continue;
    std::string unescaped;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (line.compare(k, 2, "\\-") == 0) {
        unescaped += '-';
        ++k;
      } else {
        unescaped += line[k];
      }
    }
    std::istringstream columns(unescaped);
    std::string id, severity, normative;
    std::getline(columns, id, '\t');
    std::getline(columns, severity, '\t');
    std::getline(columns, normative, '\t');
    table[id] = {severity, normative};
  }
  EXPECT_EQ(table.size(), rules::rule_catalog().size());
  for (const rules::RuleInfo& rule : rules::rule_catalog()) {
    auto row = table.find(std::string(rule.id));
    ASSERT_NE(row, table.end()) << rule.id << " is missing from the man page's table";
    EXPECT_EQ(row->second.first, rules::to_string(rule.severity)) << rule.id;
    EXPECT_EQ(row->second.second, std::string(rule.normative)) << rule.id;
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
