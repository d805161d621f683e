// A DLPackExchangeAPI table read for a caller that holds only its address
// (the Python package, from a type's __dlpack_c_exchange_api__ capsule): the
// header and the function slots, through the facts reader's page-guarded
// copy, so that the caller keeps no copy of the struct's layout and a wild
// pointer is an answer, never a crash.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// {"header_readable", "version": [major, minor], "prev_api", "table_readable"
// (a table of major 1 read whole), "slots": {name: address}} where readable.
nlohmann::ordered_json exchange_api_table_json(std::uint64_t address);

}  // namespace dlpack_usm::bridge
