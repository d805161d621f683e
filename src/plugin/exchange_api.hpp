// A library that offers only DLPack's C exchange API: `--producer
// LIB:SYMBOL` names a function `const DLPackExchangeAPI* SYMBOL(void)`
// (the C counterpart of the Python type attribute __dlpack_c_exchange_api__).
// The tool takes the table whose header has major version 1, walking
// prev_api from a newer one, and drives its managed_tensor_allocator.
#pragma once

#include <string>

#include "dlpack/abi.hpp"
#include "plugin/plugin_library.hpp"

namespace dlpack_usm::plugin {

struct ExchangeApi {
  const dlpack::DLPackExchangeAPI* table = nullptr;
  dlpack::DLPackVersion published{};  // the header version SYMBOL returned first
};

// Calls SYMBOL and validates the table. Throws Error(usage) for a missing
// symbol, a NULL table, no major-1 table in the prev_api chain, or a NULL
// managed_tensor_allocator.
ExchangeApi resolve_exchange_api(const PluginLibrary& library, const std::string& symbol);

}  // namespace dlpack_usm::plugin
