// The catalog rules the exchange names when it refuses a tensor itself,
// before the rule engine runs (the protocol cannot go on without them).
// exchange_rule_ids_test proves every id here is in the catalog.
#pragma once

#include <string_view>
#include "rules/rule_ids.hpp"

namespace dlpack_usm::exchange::rule_ids {

namespace ids = rules::ids;

inline constexpr std::string_view kDefaultContext = ids::kOneapiContextNotDefault;
inline constexpr std::string_view kUsmUnknown = ids::kOneapiUsmUnknown;
inline constexpr std::string_view kDeviceIdRange = ids::kOneapiDeviceIdRange;
inline constexpr std::string_view kDeviceIdNegative = ids::kDeviceIdNegative;
inline constexpr std::string_view kVersionMajor = ids::kVersionMajor;
inline constexpr std::string_view kExtentOutsideAllocation = ids::kExtentOutsideAllocation;
// The facts reader's dimension limit: the gate refuses a tensor it fires on.
inline constexpr std::string_view kNdimLimit = ids::kNdimLimit;

}  // namespace dlpack_usm::exchange::rule_ids
