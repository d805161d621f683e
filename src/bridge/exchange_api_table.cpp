#include "bridge/exchange_api_table.hpp"

#include <cstring>

#include "dlpack/abi.hpp"
#include "facts/readable_memory.hpp"

namespace dlpack_usm::bridge {
namespace {

std::uint64_t address_of(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer);
}

template <typename Function>
std::uint64_t address_of_function(Function function) {
  std::uint64_t address = 0;
  static_assert(sizeof(function) == sizeof(address));
  std::memcpy(&address, &function, sizeof address);
  return address;
}

nlohmann::ordered_json slots_json(const dlpack::DLPackExchangeAPI& table) {
  return {{"managed_tensor_allocator", address_of_function(table.managed_tensor_allocator)},
          {"managed_tensor_from_py_object_no_sync",
           address_of(table.managed_tensor_from_py_object_no_sync)},
          {"managed_tensor_to_py_object_no_sync",
           address_of(table.managed_tensor_to_py_object_no_sync)},
          {"dltensor_from_py_object_no_sync", address_of(table.dltensor_from_py_object_no_sync)},
          {"current_work_stream", address_of_function(table.current_work_stream)}};
}

}  // namespace

nlohmann::ordered_json exchange_api_table_json(std::uint64_t address) {
  const void* at = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address));
  dlpack::DLPackExchangeAPIHeader header{};
  if (at == nullptr || !facts::copy_readable(&header, at, sizeof header)) {
    return {{"header_readable", false}, {"table_readable", false}};
  }
  nlohmann::ordered_json answer{{"header_readable", true},
                                {"version", {header.version.major, header.version.minor}},
                                {"prev_api", address_of(header.prev_api)}};
  // A header of another major may lay out what follows otherwise.
  dlpack::DLPackExchangeAPI table{};
  bool whole = header.version.major == 1 && facts::copy_readable(&table, at, sizeof table);
  answer["table_readable"] = whole;
  if (whole) answer["slots"] = slots_json(table);
  return answer;
}

}  // namespace dlpack_usm::bridge
