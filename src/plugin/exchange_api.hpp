// A library that offers only DLPack's C exchange API: `--producer
// LIB:SYMBOL` names a function `const DLPackExchangeAPI* SYMBOL(void)`
// (the C counterpart of the Python type attribute __dlpack_c_exchange_api__).
// The tool reads the table and the chain behind it as facts (facts/
// exchange_api_facts.hpp, judged by rules/exchange_api_rules.hpp) and drives
// the first table of major version 1.
#pragma once

#include <string>

#include "dlpack/abi.hpp"
#include "facts/exchange_api_facts.hpp"
#include "plugin/plugin_library.hpp"

namespace dlpack_usm::plugin {

struct ExchangeApi {
  // The first major-1 table of the chain: the one the tool calls.
  const dlpack::DLPackExchangeAPI* table = nullptr;
  dlpack::DLPackVersion published{};  // the header version SYMBOL returned first
  facts::ExchangeApiFacts facts;      // the published table and its prev_api chain
};

// Calls SYMBOL and reads the table. Throws Error(usage) for a missing symbol,
// a NULL or unreadable table, or no major-1 table in the prev_api chain: the
// tool cannot test such a library at all. What the table gets wrong besides
// (a NULL slot, a prev_api chain that loops) is left to the rules.
ExchangeApi resolve_exchange_api(const PluginLibrary& library, const std::string& symbol);

}  // namespace dlpack_usm::plugin
