// Facts as one comparable, printable string: every field a reader sets,
// through the capsule-file form and beside it the values that form words
// differently (the ABI, raw numbers, the origin, the reader's notes). The
// line reader's test and its fuzz target compare the two readers with it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "capsule/capsule_file.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::capsule::testing {

inline std::string described(const facts::TensorFacts& facts) {
  nlohmann::ordered_json out = to_capsule_json(facts);
  out["abi"] = facts.abi == facts::Abi::legacy ? "legacy" : "versioned";
  out["flags_value"] = facts.flags;
  out["body_read"] = facts.body_read;
  out["data_value"] = facts.data;
  out["device_type_value"] = facts.device_type;
  out["dtype_value"] = {facts.dtype.code, facts.dtype.bits, facts.dtype.lanes};
  out["byte_offset_value"] = facts.byte_offset;
  out["origin_value"] = facts.origin;
  out["reader_notes"] = facts.reader_notes;
  if (facts.runtime) {
    out["owner_sub_device_index"] =
        facts.runtime->owner_sub_device_index.has_value()
            ? nlohmann::ordered_json(*facts.runtime->owner_sub_device_index)
            : nlohmann::ordered_json("absent");
  }
  return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace dlpack_usm::capsule::testing
