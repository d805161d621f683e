// The consumer matrix laid out once, for C plugins (check --consumer) and
// Python consumers alike: which cells are offered in which memory, and
// where each sits in the profile. Not the cross product: on a USM root
// device every version on every kind it can allocate, and the dtype and
// layout axes and the invalid cells on its first kind (device USM where it
// can); on plain host memory (kDLCPU) every cell that has a host form.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "facts/tensor_facts.hpp"
#include "matrix/consumer_matrix.hpp"
#include "runtime/device_model.hpp"
#include "suite/model/case_place.hpp"

namespace dlpack_usm::suite {

struct ConsumerCell {
  matrix::OfferedShape shape;
  facts::UsmKind kind = facts::UsmKind::unknown;  // unknown: host memory (kDLCPU)
  // The group in the case's id ("device", "host", "cpu", "invalid").
  std::string group;
  // What a decline of it needs, for --require.
  std::vector<std::string> features;
  // Its place: direction consumer, the memory, one line.
  CasePlace place;
  // An invalid cell: the rule it breaks; "" for a valid one.
  std::string broken_rule;

  bool valid() const { return broken_rule.empty(); }
  // "cpu", or the USM kind's name ("device"), as the bridge's offers take it.
  std::string memory_name() const;
};

// The first kind the device can allocate, in the order device, shared,
// host; nullopt for a device without USM.
std::optional<facts::UsmKind> first_consumer_kind(const runtime::DeviceInfo& device);

// The cells of a USM root device (none where it has no USM).
std::vector<ConsumerCell> usm_consumer_cells(const runtime::DeviceInfo& root);

// The cells of plain host memory: those that break a rule of USM pointers
// or kDLOneAPI device ids have no host form.
std::vector<ConsumerCell> host_consumer_cells();

}  // namespace dlpack_usm::suite
