#include "plugin/exchange_api.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::plugin {
namespace {

using ExchangeApiGetter = const dlpack::DLPackExchangeAPI* (*)();

// A chain longer than this is a loop: there are not that many majors.
constexpr int kMaxChain = 16;

}  // namespace

ExchangeApi resolve_exchange_api(const PluginLibrary& library, const std::string& symbol) {
  const std::string& path = library.path();
  void* address = library.symbol(symbol);
  if (address == nullptr) {
    fail_usage(fmt::format("{} exports no symbol {}", path, symbol),
               "name a function 'const DLPackExchangeAPI* SYMBOL(void)' with C linkage "
               "(nm -D LIB lists the exported symbols)");
  }
  const dlpack::DLPackExchangeAPI* api = reinterpret_cast<ExchangeApiGetter>(address)();
  if (api == nullptr) {
    fail_usage(fmt::format("{}: {}() returned NULL", path, symbol),
               "return a pointer to a DLPackExchangeAPI that lives as long as the process");
  }
  ExchangeApi found;
  found.published = api->header.version;
  std::string majors;
  const dlpack::DLPackExchangeAPIHeader* header = &api->header;
  for (int step = 0; header != nullptr && step < kMaxChain; ++step) {
    if (header->version.major == dlpack::kModelMajor) {
      // The header is the table's first member, so the table starts there.
      found.table = reinterpret_cast<const dlpack::DLPackExchangeAPI*>(header);
      break;
    }
    majors += fmt::format("{}{}", majors.empty() ? "" : ", ", header->version.major);
    header = header->prev_api;
  }
  if (found.table == nullptr) {
    fail_usage(fmt::format("{}: {}() offers no DLPack {}.x exchange API (major versions in its "
                           "prev_api chain: {})",
                           path, symbol, dlpack::kModelMajor, majors),
               "link a table for DLPack 1.x through header.prev_api");
  }
  if (found.table->managed_tensor_allocator == nullptr) {
    fail_usage(
        fmt::format("{}: the exchange API of {}() has no managed_tensor_allocator", path, symbol),
        "check --producer drives managed_tensor_allocator; set it");
  }
  return found;
}

}  // namespace dlpack_usm::plugin
