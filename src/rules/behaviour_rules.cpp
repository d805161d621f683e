// Behaviour family: what a library under test *does* with a tensor, which no
// fact of one struct shows: the data it puts behind its strides, whether its
// deleter frees, what a consumer reads and when it calls the deleter, and
// whether it crashes or hangs. `check --producer` and `check --consumer`
// judge these in their plugin cases (src/suite/producer_cases.cpp,
// consumer_cases.cpp, exchange_api_cases.cpp); their failing and passing
// vectors are the fixture plugins of fixtures/plugins/, listed in
// fixtures/plugins/behaviour_vectors.json.
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

// Nothing to see in the facts of one tensor: the plugin cases report these
// rules themselves.
void judged_by_plugin_cases(const RuleContext&, Reporter&) {}

constexpr dl::Release kExchangeApiSince{1, 2};

constexpr std::array kRules{
    RuleDefinition{
        {"DLP-PRODUCER-CONTENT", "behaviour",
         "Produced tensor does not hold the requested elements where it says", Severity::error,
         kFirstRelease, std::nullopt, "dlpack.h 1.3 (DLTensor::strides, DLTensor::byte_offset)",
         "Strides are \"in number of elements, not bytes\" and byte_offset is \"the offset in "
         "bytes to the beginning pointer to data\": reading element i at data + byte_offset + "
         "the strided position must give the producer's element i (of the dtype and shape "
         "asked for, READ_ONLY set when asked)."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PRODUCER-DELETER-LEAK", "behaviour", "Deleter ran but the allocation lives on",
         Severity::error, kFirstRelease, std::nullopt,
         "dlpack.h 1.3 (DLManagedTensorVersioned::deleter)",
         "The deleter is the \"Destructor\": the borrowing framework calls it \"to notify the "
         "host that the resource is no longer needed\", so once it has run the producer's "
         "allocation must be released."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-CHECKSUM", "behaviour",
         "Consumer read other elements than the tensor describes", Severity::error, kFirstRelease,
         std::nullopt, "dlpack.h 1.3 (DLTensor::strides, DLTensor::byte_offset)",
         "A consumer must find element i at data + byte_offset + the position its strides "
         "(\"in number of elements, not bytes\", any sign, any value on an extent-1 axis) "
         "give; NULL strides before 1.2 mean compact row-major."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-REJECTS-VALID", "behaviour", "Consumer rejected a valid tensor",
         Severity::error, kFirstRelease, std::nullopt,
         "dlpack.h 1.3 (DLTensor::data); seeds/000_a1fa70ac3aeb0d85.txt (import protocol)",
         "\"If the tensor is of size zero, then the data pointer should be set to NULL\"; "
         "views with byte_offset, negative strides, ndim 0, legacy tensors and READ_ONLY "
         "tensors of the default context are all valid and must import."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-ACCEPTS-INVALID", "behaviour", "Consumer accepted an invalid tensor",
         Severity::error, kFirstRelease, std::nullopt,
         "seeds/000_a1fa70ac3aeb0d85.txt (import protocol); dlpack.h 1.2 (DLTensor::strides)",
         "Import rejects a pointer whose USM kind in the default context of the device's "
         "platform is unknown, a major version it does not know, and (from 1.2) NULL strides "
         "when ndim is not 0."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-CONSUMER-DELETER-COUNT", "behaviour",
         "Consumer did not call the deleter exactly once", Severity::error, kFirstRelease,
         std::nullopt, "dlpack.h 1.3 (DLManagedTensorVersioned, DLPackVersion)",
         "\"When the borrowing framework doesn't need the tensor, it should call the deleter\"; "
         "on a major version mismatch the consumer \"must call the deleter\" too. It runs once: "
         "\"The destructor deletes the argument self as well.\""},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-EXCHANGE-API-PROTOTYPE", "behaviour",
         "managed_tensor_allocator ignored its prototype", Severity::error, kExchangeApiSince,
         std::nullopt, "dlpack.h 1.3 (DLPackManagedTensorAllocator)",
         "The allocator creates a tensor \"defined via the prototype DLTensor. Only the dtype, "
         "ndim, shape, and device fields are used\": the tensor it returns has exactly those."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-CRASH", "behaviour", "Library under test crashed or exited", Severity::error,
         kFirstRelease, std::nullopt, "plugin.h (dlpack_usm_plugin ABI 1)",
         "produce, consume, the deleter and the exchange API's allocator are C functions that "
         "return to their caller: a signal or an exit of the process is a failure of the "
         "library."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-PLUGIN-HANG", "behaviour", "Library under test did not return in time",
         Severity::error, kFirstRelease, std::nullopt, "plugin.h (dlpack_usm_plugin ABI 1)",
         "Every call into the library returns; a case still running at check's --timeout is "
         "killed and fails."},
        Scope::header,
        judged_by_plugin_cases},
};

}  // namespace

std::span<const RuleDefinition> behaviour_rules() {
  return kRules;
}

}  // namespace dlpack_usm::rules
