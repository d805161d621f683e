// read_exchange_api(): the chain of DLPackExchangeAPI headers behind a table,
// read without trusting a pointer (a prev_api into a PROT_NONE page is a
// fact, not a crash), a loop stopped where it closes, and a header of
// another major read no further than itself.
#include <gtest/gtest.h>

#include "facts/exchange_api_facts.hpp"
#include "facts_test_support.hpp"

namespace dlpack_usm::facts {
namespace {

using testing::GuardedPage;

int allocate(dlpack::DLTensor*, dlpack::DLManagedTensorVersioned**, void*, dlpack::DLPackSetError) {
  return -1;
}
int stream(std::int32_t, std::int32_t, void**) {
  return -1;
}

dlpack::DLPackExchangeAPI table(std::uint32_t major, std::uint32_t minor,
                                dlpack::DLPackExchangeAPIHeader* prev = nullptr) {
  dlpack::DLPackExchangeAPI api{};
  api.header = {{major, minor}, prev};
  api.managed_tensor_allocator = allocate;
  api.current_work_stream = stream;
  return api;
}

// A header of `version` at the very end of the page's readable memory: a
// table behind it would lie in the guard page.
dlpack::DLPackExchangeAPIHeader* header_at_the_end(
    const GuardedPage& page, dlpack::DLPackVersion version,
    dlpack::DLPackExchangeAPIHeader* prev = nullptr) {
  auto* header = static_cast<dlpack::DLPackExchangeAPIHeader*>(
      page.last_bytes(sizeof(dlpack::DLPackExchangeAPIHeader)));
  *header = {version, prev};
  return header;
}

TEST(ExchangeApiReader, ReadsTheSlotsOfAMajor1Table) {
  dlpack::DLPackExchangeAPI api = table(1, 3);
  ExchangeApiFacts facts = read_exchange_api(&api);
  ASSERT_EQ(facts.chain.size(), 1u);
  EXPECT_EQ(facts.end, ExchangeApiChainEnd::null);
  const ExchangeApiLink& link = facts.chain[0];
  EXPECT_EQ(link.address, reinterpret_cast<std::uint64_t>(&api));
  EXPECT_EQ(link.version.minor, 3u);
  ASSERT_TRUE(link.slots);
  EXPECT_TRUE(link.slots->managed_tensor_allocator);
  EXPECT_FALSE(link.slots->managed_tensor_from_py_object_no_sync);
  EXPECT_FALSE(link.slots->managed_tensor_to_py_object_no_sync);
  EXPECT_FALSE(link.slots->dltensor_from_py_object_no_sync);
  EXPECT_TRUE(link.slots->current_work_stream);
  EXPECT_EQ(usable_exchange_api(facts), &facts.chain[0]);
}

TEST(ExchangeApiReader, WalksToTheMajor1TableAndReadsNoOtherMajorsBody) {
  dlpack::DLPackExchangeAPI older = table(1, 2);
  // Its body, if any, would lie in the guard page: reading past the
  // major-2 header would crash.
  GuardedPage page;
  dlpack::DLPackExchangeAPIHeader* newer = header_at_the_end(page, {2, 0}, &older.header);
  ExchangeApiFacts facts = read_exchange_api(newer);
  ASSERT_EQ(facts.chain.size(), 2u);
  EXPECT_FALSE(facts.chain[0].slots);
  EXPECT_TRUE(facts.chain[1].slots);
  EXPECT_EQ(usable_exchange_api(facts), &facts.chain[1]);
}

TEST(ExchangeApiReader, StopsAtALoop) {
  dlpack::DLPackExchangeAPI a = table(1, 3);
  dlpack::DLPackExchangeAPI b = table(1, 2, &a.header);
  a.header.prev_api = &b.header;
  ExchangeApiFacts facts = read_exchange_api(&a);
  ASSERT_EQ(facts.chain.size(), 2u);
  EXPECT_EQ(facts.end, ExchangeApiChainEnd::cycle);
  EXPECT_EQ(facts.cycle_to, 0u);

  dlpack::DLPackExchangeAPI self = table(1, 3);
  self.header.prev_api = &self.header;
  facts = read_exchange_api(&self);
  ASSERT_EQ(facts.chain.size(), 1u);
  EXPECT_EQ(facts.end, ExchangeApiChainEnd::cycle);
}

TEST(ExchangeApiReader, AnUnreadablePrevApiIsAFact) {
  GuardedPage page;
  auto* wild = static_cast<dlpack::DLPackExchangeAPIHeader*>(page.guard());
  dlpack::DLPackExchangeAPI api = table(1, 3, wild);
  ExchangeApiFacts facts = read_exchange_api(&api);
  ASSERT_EQ(facts.chain.size(), 1u);
  EXPECT_EQ(facts.end, ExchangeApiChainEnd::unreadable);
  EXPECT_EQ(facts.unreadable_address, reinterpret_cast<std::uint64_t>(wild));

  facts = read_exchange_api(nullptr);
  EXPECT_TRUE(facts.chain.empty());
  EXPECT_EQ(facts.end, ExchangeApiChainEnd::unreadable);
  EXPECT_EQ(usable_exchange_api(facts), nullptr);
}

TEST(ExchangeApiReader, AMajor1HeaderWhoseTableIsCutOffHasNoSlots) {
  GuardedPage page;
  dlpack::DLPackExchangeAPIHeader* header = header_at_the_end(page, {1, 3});
  ExchangeApiFacts facts = read_exchange_api(header);
  ASSERT_EQ(facts.chain.size(), 1u);
  EXPECT_FALSE(facts.chain[0].slots);
  EXPECT_EQ(usable_exchange_api(facts), nullptr);
}

TEST(ExchangeApiReader, AChainTooLongIsReadNoFurther) {
  std::vector<dlpack::DLPackExchangeAPI> tables(kMaxExchangeApiChain + 2);
  for (std::size_t i = 0; i < tables.size(); ++i) {
    tables[i] = table(1, static_cast<std::uint32_t>(tables.size() - i),
                      i + 1 < tables.size() ? &tables[i + 1].header : nullptr);
  }
  ExchangeApiFacts facts = read_exchange_api(&tables[0]);
  EXPECT_EQ(facts.chain.size(), kMaxExchangeApiChain);
  EXPECT_EQ(facts.end, ExchangeApiChainEnd::too_long);
}

}  // namespace
}  // namespace dlpack_usm::facts
