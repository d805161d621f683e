// Calls into a DLPackExchangeAPI table, each with what it answered: the
// allocator with the SetError it may call, current_work_stream with the
// stream it wrote. The exchange-api cases judge the answers.
#pragma once

#include <string>

#include "dlpack/abi.hpp"
#include "facts/exchange_api_facts.hpp"

namespace dlpack_usm::suite {

struct AllocatorCall {
  int status = 0;
  dl::DLManagedTensorVersioned* out = nullptr;
  bool error_set = false;  // SetError was called
  std::string error_kind;
  std::string error_message;
};

// managed_tensor_allocator(prototype, &out, ...), which must not be NULL.
AllocatorCall call_allocator(const dl::DLPackExchangeAPI& table, dl::DLTensor& prototype);

// current_work_stream(device_type, device_id, &stream), which must not be
// NULL; the stream is NULL before the call, so a function that succeeds
// without writing it answers NULL.
facts::WorkStreamAnswer call_work_stream(const dl::DLPackExchangeAPI& table,
                                         std::int32_t device_type, std::int32_t device_id);

}  // namespace dlpack_usm::suite
