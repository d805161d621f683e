#include <algorithm>

#include "facts/exchange_api_facts.hpp"
#include "facts/readable_memory.hpp"

namespace dlpack_usm::facts {
namespace {

ExchangeApiSlots slots_of(const dl::DLPackExchangeAPI& table) {
  ExchangeApiSlots slots;
  slots.managed_tensor_allocator = table.managed_tensor_allocator != nullptr;
  slots.managed_tensor_from_py_object_no_sync =
      table.managed_tensor_from_py_object_no_sync != nullptr;
  slots.managed_tensor_to_py_object_no_sync = table.managed_tensor_to_py_object_no_sync != nullptr;
  slots.dltensor_from_py_object_no_sync = table.dltensor_from_py_object_no_sync != nullptr;
  slots.current_work_stream = table.current_work_stream != nullptr;
  return slots;
}

// The header at `address` and, for major 1, the table it starts; false when
// the header cannot be read.
bool read_link(std::uint64_t address, ExchangeApiLink& link) {
  const void* source = reinterpret_cast<const void*>(address);
  dl::DLPackExchangeAPIHeader header{};
  if (address == 0 || !copy_readable(&header, source, sizeof header)) return false;
  link.address = address;
  link.version = header.version;
  link.prev_api = reinterpret_cast<std::uint64_t>(header.prev_api);
  dl::DLPackExchangeAPI table{};
  if (header.version.major == dl::kModelMajor && copy_readable(&table, source, sizeof table)) {
    link.slots = slots_of(table);
  }
  return true;
}

}  // namespace

ExchangeApiFacts read_exchange_api(const void* api) {
  ExchangeApiFacts facts;
  std::uint64_t address = reinterpret_cast<std::uint64_t>(api);
  while (true) {
    auto seen =
        std::find_if(facts.chain.begin(), facts.chain.end(),
                     [address](const ExchangeApiLink& link) { return link.address == address; });
    if (seen != facts.chain.end()) {
      facts.end = ExchangeApiChainEnd::cycle;
      facts.cycle_to = static_cast<std::size_t>(seen - facts.chain.begin());
      return facts;
    }
    if (facts.chain.size() == kMaxExchangeApiChain) {
      facts.end = ExchangeApiChainEnd::too_long;
      return facts;
    }
    ExchangeApiLink link;
    if (!read_link(address, link)) {
      facts.end = ExchangeApiChainEnd::unreadable;
      facts.unreadable_address = address;
      return facts;
    }
    facts.chain.push_back(link);
    address = link.prev_api;
    if (address == 0) return facts;  // end null
  }
}

const ExchangeApiLink* usable_exchange_api(const ExchangeApiFacts& facts) {
  auto found =
      std::find_if(facts.chain.begin(), facts.chain.end(), [](const ExchangeApiLink& link) {
        return link.version.major == dl::kModelMajor && link.slots.has_value();
      });
  return found == facts.chain.end() ? nullptr : &*found;
}

}  // namespace dlpack_usm::facts
