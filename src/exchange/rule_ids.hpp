// The catalog rules the exchange names when it refuses a tensor itself,
// before the rule engine runs (the protocol cannot go on without them).
// exchange_rule_ids_test proves every id here is in the catalog.
#pragma once

#include <string_view>

namespace dlpack_usm::exchange::rule_ids {

inline constexpr std::string_view kDefaultContext = "DLP-ONEAPI-CONTEXT-NOT-DEFAULT";
inline constexpr std::string_view kUsmUnknown = "DLP-ONEAPI-USM-UNKNOWN";
inline constexpr std::string_view kDeviceIdRange = "DLP-ONEAPI-DEVICE-ID-RANGE";
inline constexpr std::string_view kDeviceIdNegative = "DLP-DEVICE-ID-NEGATIVE";
inline constexpr std::string_view kVersionMajor = "DLP-VERSION-MAJOR";
inline constexpr std::string_view kExtentOutsideAllocation = "DLP-EXTENT-OUTSIDE-ALLOCATION";
// The facts reader's dimension limit: the gate refuses a tensor it fires on.
inline constexpr std::string_view kNdimLimit = "DLP-NDIM-LIMIT";

}  // namespace dlpack_usm::exchange::rule_ids
