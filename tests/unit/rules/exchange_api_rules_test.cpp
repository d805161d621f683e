// The exchange-api family on plain values: a correct table is clean, each
// broken slot or prev_api chain fires its rule and no other, and
// current_work_stream's NULL is judged by the device type it was asked for.
#include <gtest/gtest.h>

#include "rules/exchange_api_rules.hpp"

namespace dlpack_usm::rules {
namespace {

using Ids = std::vector<std::string>;

facts::ExchangeApiSlots all_slots() {
  return {true, true, true, false, true};  // dltensor_from_py_object_no_sync may be NULL
}

facts::ExchangeApiLink link(std::uint32_t major, std::uint32_t minor, std::uint64_t address) {
  facts::ExchangeApiLink link;
  link.address = address;
  link.version = {major, minor};
  if (major == 1) link.slots = all_slots();
  return link;
}

// A chain of the given links, each prev_api the next one's address.
facts::ExchangeApiFacts chain(std::vector<facts::ExchangeApiLink> links) {
  facts::ExchangeApiFacts table;
  for (std::size_t i = 0; i + 1 < links.size(); ++i) links[i].prev_api = links[i + 1].address;
  table.chain = std::move(links);
  return table;
}

Ids ids_of(const std::vector<Finding>& findings) {
  Ids ids;
  for (const Finding& finding : findings) ids.push_back(finding.rule_id);
  return ids;
}

TEST(ExchangeApiRules, ACorrectTableIsClean) {
  EXPECT_TRUE(check_exchange_api(chain({link(1, 3, 0x1000)})).empty());
  // A newer major linking the 1.x table, newest first.
  EXPECT_TRUE(check_exchange_api(chain({link(2, 0, 0x2000), link(1, 3, 0x1000)})).empty());
  EXPECT_TRUE(check_exchange_api(chain({link(1, 3, 0x1000), link(1, 2, 0x3000)})).empty());
}

TEST(ExchangeApiRules, EachNullSlotFiresItsRule) {
  struct Case {
    bool facts::ExchangeApiSlots::*slot;
    const char* rule;
    const char* field;
  };
  for (const Case& c :
       {Case{&facts::ExchangeApiSlots::managed_tensor_allocator, "DLP-EXCHANGE-API-ALLOCATOR-NULL",
             "managed_tensor_allocator"},
        Case{&facts::ExchangeApiSlots::managed_tensor_from_py_object_no_sync,
             "DLP-EXCHANGE-API-FROM-PY-NULL", "managed_tensor_from_py_object_no_sync"},
        Case{&facts::ExchangeApiSlots::managed_tensor_to_py_object_no_sync,
             "DLP-EXCHANGE-API-TO-PY-NULL", "managed_tensor_to_py_object_no_sync"},
        Case{&facts::ExchangeApiSlots::current_work_stream, "DLP-EXCHANGE-API-STREAM-FN-NULL",
             "current_work_stream"}}) {
    facts::ExchangeApiFacts table = chain({link(1, 3, 0x1000)});
    (*table.chain[0].slots).*c.slot = false;
    std::vector<Finding> findings = check_exchange_api(table);
    ASSERT_EQ(ids_of(findings), Ids{c.rule});
    EXPECT_EQ(findings[0].field, c.field);
    EXPECT_EQ(findings[0].severity, Severity::error);
    // The same slot of an older major-1 table further down the chain.
    facts::ExchangeApiFacts older = chain({link(1, 3, 0x1000), link(1, 2, 0x2000)});
    (*older.chain[1].slots).*c.slot = false;
    findings = check_exchange_api(older);
    ASSERT_EQ(ids_of(findings), Ids{c.rule});
    EXPECT_EQ(findings[0].field, std::string("chain[1].") + c.field);
  }
}

TEST(ExchangeApiRules, ANullDltensorFromPyObjectIsAllowed) {
  facts::ExchangeApiFacts table = chain({link(1, 3, 0x1000)});
  table.chain[0].slots->dltensor_from_py_object_no_sync = false;
  EXPECT_TRUE(check_exchange_api(table).empty());
}

TEST(ExchangeApiRules, OtherMajorsAreNotJudgedBySlot) {
  // A major-2 table's layout is unknown: no slots, no finding.
  EXPECT_TRUE(check_exchange_api(chain({link(2, 0, 0x2000)})).empty());
}

TEST(ExchangeApiRules, PrevApiToAVersionWithoutExchangeApiMustBeNull) {
  facts::ExchangeApiFacts table = chain({link(1, 3, 0x1000), link(0, 0, 0x2000)});
  table.chain[1].slots.reset();
  std::vector<Finding> findings = check_exchange_api(table);
  ASSERT_EQ(ids_of(findings), Ids{"DLP-EXCHANGE-API-PREV-NOT-NULL"});
  EXPECT_EQ(findings[0].field, "header.prev_api");
  EXPECT_NE(findings[0].message.find("0.0"), std::string::npos);
  // 1.1 had no exchange API either.
  EXPECT_EQ(ids_of(check_exchange_api(chain({link(1, 3, 0x1000), link(1, 1, 0x2000)}))),
            Ids{"DLP-EXCHANGE-API-PREV-NOT-NULL"});
}

TEST(ExchangeApiRules, PrevApiIntoUnreadableMemoryMustBeNull) {
  facts::ExchangeApiFacts table = chain({link(1, 3, 0x1000)});
  table.chain[0].prev_api = 0x10;
  table.end = facts::ExchangeApiChainEnd::unreadable;
  table.unreadable_address = 0x10;
  std::vector<Finding> findings = check_exchange_api(table);
  ASSERT_EQ(ids_of(findings), Ids{"DLP-EXCHANGE-API-PREV-NOT-NULL"});
  EXPECT_NE(findings[0].message.find("0x10"), std::string::npos);
}

TEST(ExchangeApiRules, PrevApiToATableThatIsNotOlder) {
  for (auto [major, minor] : {std::pair{1u, 3u}, std::pair{1u, 4u}, std::pair{2u, 0u}}) {
    facts::ExchangeApiFacts table = chain({link(1, 3, 0x1000), link(major, minor, 0x2000)});
    std::vector<Finding> findings = check_exchange_api(table);
    ASSERT_EQ(ids_of(findings), Ids{"DLP-EXCHANGE-API-PREV-ORDER"}) << major << "." << minor;
    EXPECT_EQ(findings[0].field, "header.prev_api");
  }
}

TEST(ExchangeApiRules, APrevApiLoopIsACycleOnly) {
  // Back to itself: the same version, but the loop is what is wrong.
  facts::ExchangeApiFacts self = chain({link(1, 3, 0x1000)});
  self.chain[0].prev_api = 0x1000;
  self.end = facts::ExchangeApiChainEnd::cycle;
  self.cycle_to = 0;
  EXPECT_EQ(ids_of(check_exchange_api(self)), Ids{"DLP-EXCHANGE-API-PREV-CYCLE"});
  // 1.3 -> 1.2 -> back to 1.3.
  facts::ExchangeApiFacts loop = chain({link(1, 3, 0x1000), link(1, 2, 0x2000)});
  loop.chain[1].prev_api = 0x1000;
  loop.end = facts::ExchangeApiChainEnd::cycle;
  std::vector<Finding> findings = check_exchange_api(loop);
  ASSERT_EQ(ids_of(findings), Ids{"DLP-EXCHANGE-API-PREV-CYCLE"});
  EXPECT_EQ(findings[0].field, "chain[1].header.prev_api");
}

TEST(ExchangeApiRules, WorkStreamNullOnlyWhereNullIsNoStream) {
  facts::WorkStreamAnswer answer;
  answer.device_type = dlpack::kDLOneAPI;
  answer.stream = 0;
  std::vector<Finding> findings = check_work_stream(answer);
  ASSERT_EQ(ids_of(findings), Ids{"DLP-EXCHANGE-API-STREAM-NULL"});
  EXPECT_NE(findings[0].message.find("kDLOneAPI"), std::string::npos);
  answer.device_type = dlpack::kDLMetal;
  EXPECT_EQ(ids_of(check_work_stream(answer)), Ids{"DLP-EXCHANGE-API-STREAM-NULL"});
  for (std::int32_t type : {dlpack::kDLCPU, dlpack::kDLCUDA, dlpack::kDLCUDAHost,
                            dlpack::kDLCUDAManaged, dlpack::kDLROCM, dlpack::kDLROCMHost}) {
    answer.device_type = type;
    EXPECT_TRUE(check_work_stream(answer).empty()) << type;
  }
  // A stream, or a failed call (a decline), is no finding.
  answer.device_type = dlpack::kDLOneAPI;
  answer.stream = 0x5000;
  EXPECT_TRUE(check_work_stream(answer).empty());
  answer.stream = 0;
  answer.status = -1;
  EXPECT_TRUE(check_work_stream(answer).empty());
}

TEST(ExchangeApiRules, TheFamilyIsInTheCatalogAndQuotesTheHeader) {
  int rules = 0;
  for (const RuleInfo& rule : rule_catalog()) {
    if (rule.family != "exchange-api") continue;
    ++rules;
    EXPECT_EQ(rule.severity, Severity::error) << rule.id;
    EXPECT_EQ(rule.since, (dlpack::Release{1, 2})) << rule.id;
    EXPECT_TRUE(rule.reference.starts_with("dlpack.h 1.3, ")) << rule.id;
    EXPECT_FALSE(rule.quote.empty()) << rule.id;
  }
  EXPECT_EQ(rules, 8);
}

}  // namespace
}  // namespace dlpack_usm::rules
