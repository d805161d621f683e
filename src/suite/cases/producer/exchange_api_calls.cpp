#include "suite/cases/producer/exchange_api_calls.hpp"

namespace dlpack_usm::suite {
namespace {

void record_allocator_error(void* context, const char* kind, const char* message) {
  auto* call = static_cast<AllocatorCall*>(context);
  call->error_set = true;
  call->error_kind = kind != nullptr ? kind : "";
  call->error_message = message != nullptr ? message : "";
}

}  // namespace

AllocatorCall call_allocator(const dl::DLPackExchangeAPI& table, dl::DLTensor& prototype) {
  AllocatorCall call;
  call.status =
      table.managed_tensor_allocator(&prototype, &call.out, &call, record_allocator_error);
  return call;
}

facts::WorkStreamAnswer call_work_stream(const dl::DLPackExchangeAPI& table,
                                         std::int32_t device_type, std::int32_t device_id) {
  facts::WorkStreamAnswer answer;
  answer.device_type = device_type;
  answer.device_id = device_id;
  void* stream = nullptr;
  answer.status = table.current_work_stream(device_type, device_id, &stream);
  answer.stream = reinterpret_cast<std::uint64_t>(stream);
  return answer;
}

}  // namespace dlpack_usm::suite
