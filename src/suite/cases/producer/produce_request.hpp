// What `check --producer` asks a library for: plugin.h's produce request
// for one tensor of the live matrix, with the layout and dtype it stands
// for. Shared by the producer cases and the lifetime cases.
#pragma once

#include <cstdint>

#include "dlpack/abi.hpp"
#include "dlpack/names.hpp"
#include "dlpack_usm/plugin.h"
#include "exchange/layout.hpp"
#include "matrix/live_matrix.hpp"
#include "suite/cases/plugin/plugin_session.hpp"

namespace dlpack_usm::suite {

// What the tool asked for, kept alive for the produce call (the C request
// points into `layout`).
struct ProduceRequest {
  DlpackUsmProduceRequest c{};
  exchange::Layout layout;
  dl::DLDataType dtype{};
  std::uint64_t element_bytes = 0;
  dl::Release version;
  bool read_only = false;

  bool versioned() const { return version >= dl::Release{1, 0}; }
};

ProduceRequest make_produce_request(PluginSession& session, const runtime::DeviceInfo& device,
                                    const MatrixTensor& tensor);

}  // namespace dlpack_usm::suite
