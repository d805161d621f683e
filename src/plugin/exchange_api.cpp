#include "plugin/exchange_api.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::plugin {
namespace {

using ExchangeApiGetter = const dl::DLPackExchangeAPI* (*)();

std::string chain_majors(const facts::ExchangeApiFacts& facts) {
  std::string majors;
  for (const facts::ExchangeApiLink& link : facts.chain) {
    majors += fmt::format("{}{}", majors.empty() ? "" : ", ", link.version.major);
  }
  return majors;
}

}  // namespace

ExchangeApi resolve_exchange_api(const PluginLibrary& library, const std::string& symbol) {
  const std::string& path = library.path();
  void* address = library.symbol(symbol);
  if (address == nullptr) {
    fail_usage(fmt::format("{} exports no symbol {}", path, symbol),
               "name a function 'const DLPackExchangeAPI* SYMBOL(void)' with C linkage "
               "(nm -D LIB lists the exported symbols)");
  }
  const dl::DLPackExchangeAPI* api = reinterpret_cast<ExchangeApiGetter>(address)();
  if (api == nullptr) {
    fail_usage(fmt::format("{}: {}() returned NULL", path, symbol),
               "return a pointer to a DLPackExchangeAPI that lives as long as the process");
  }
  ExchangeApi found;
  found.facts = facts::read_exchange_api(api);
  if (found.facts.chain.empty()) {
    fail_usage(fmt::format("{}: {}() returned {}, memory this process cannot read", path, symbol,
                           static_cast<const void*>(api)),
               "return a pointer to a DLPackExchangeAPI that lives as long as the process");
  }
  found.published = found.facts.chain.front().version;
  const facts::ExchangeApiLink* usable = facts::usable_exchange_api(found.facts);
  if (usable == nullptr) {
    fail_usage(fmt::format("{}: {}() offers no DLPack {}.x exchange API (major versions in its "
                           "prev_api chain: {})",
                           path, symbol, dl::kModelMajor, chain_majors(found.facts)),
               "link a table for DLPack 1.x through header.prev_api");
  }
  // The header is the table's first member, so the table starts there.
  found.table = reinterpret_cast<const dl::DLPackExchangeAPI*>(usable->address);
  return found;
}

}  // namespace dlpack_usm::plugin
