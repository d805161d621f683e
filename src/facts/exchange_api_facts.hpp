// Facts of a DLPackExchangeAPI table (dlpack.h 1.2 and later) as plain
// values: the chain of headers its prev_api links lead through, which
// function slots of each major-1 table are set, and what current_work_stream
// answered. A C plugin's table (check --producer LIB:SYMBOL) and a Python
// type's __dlpack_c_exchange_api__ capsule are read into the same values, so
// one set of rules (rules/exchange_api_rules.hpp) judges both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "dlpack/abi.hpp"

namespace dlpack_usm::facts {

// The function slots of a table of major version 1, true where set (not
// NULL).
struct ExchangeApiSlots {
  bool managed_tensor_allocator = false;
  bool managed_tensor_from_py_object_no_sync = false;
  bool managed_tensor_to_py_object_no_sync = false;
  bool dltensor_from_py_object_no_sync = false;
  bool current_work_stream = false;
};

// One header of the chain, the published table's first.
struct ExchangeApiLink {
  std::uint64_t address = 0;  // where the header lies
  dl::DLPackVersion version{};
  std::uint64_t prev_api = 0;
  // Set for a header of major 1, whose table layout the model knows, when
  // the whole table could be read; a header of another major is read no
  // further than itself, as its layout may differ.
  std::optional<ExchangeApiSlots> slots;
};

// How walking prev_api ended.
enum class ExchangeApiChainEnd {
  null,        // the last prev_api is NULL
  cycle,       // a prev_api led back to a header of the chain
  unreadable,  // a prev_api points to memory this process cannot read
  too_long,    // more headers than kMaxExchangeApiChain: the walk stopped
};

// No DLPack release has had more than one exchange API major; a chain longer
// than this is read no further.
inline constexpr std::size_t kMaxExchangeApiChain = 64;

struct ExchangeApiFacts {
  // The published header first, then each one prev_api leads to. Empty when
  // the published header itself could not be read (end is unreadable).
  std::vector<ExchangeApiLink> chain;
  ExchangeApiChainEnd end = ExchangeApiChainEnd::null;
  // cycle: the index in `chain` of the header the last prev_api returned to.
  std::size_t cycle_to = 0;
  // unreadable: the address that could not be read.
  std::uint64_t unreadable_address = 0;
};

// What current_work_stream(device_type, device_id, &stream) answered for a
// device type the library produces tensors of.
struct WorkStreamAnswer {
  std::int32_t device_type = dl::kDLCPU;
  std::int32_t device_id = 0;
  int status = 0;            // 0 on success, -1 on failure
  std::uint64_t stream = 0;  // *out_current_stream, NULL before the call
};

// Reads the table at `api` and the chain behind it without trusting a
// pointer (copy_readable): a wild prev_api is a fact, not a crash. `api`
// may be NULL (then end is unreadable, address 0).
ExchangeApiFacts read_exchange_api(const void* api);

// The first header of major 1 whose table could be read: the table a
// consumer of this major uses. NULL when the chain has none.
const ExchangeApiLink* usable_exchange_api(const ExchangeApiFacts& facts);

}  // namespace dlpack_usm::facts
