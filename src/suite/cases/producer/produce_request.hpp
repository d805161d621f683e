// What `check --producer` asks a library for: plugin.h's produce request
// for one tensor of the live matrix, with the layout and dtype it stands
// for. Shared by the producer cases and the lifetime cases.
#pragma once

#include <cstdint>
#include <optional>

#include "dlpack/abi.hpp"
#include "dlpack/names.hpp"
#include "dlpack_usm/plugin.h"
#include "exchange/capsule_owner.hpp"
#include "exchange/layout.hpp"
#include "matrix/live_matrix.hpp"
#include "suite/cases/plugin/plugin_session.hpp"
#include "suite/model/case.hpp"
#include "suite/model/case_findings.hpp"

namespace dlpack_usm::suite {

// What the tool asked for, kept alive for the produce call (the C request
// points into `layout`).
struct ProduceRequest {
  DlpackUsmProduceRequest c{};
  exchange::Layout layout;
  dlpack::DLDataType dtype{};
  std::uint64_t element_bytes = 0;
  dlpack::Release version;
  bool read_only = false;

  bool versioned() const { return version >= dlpack::Release{1, 0}; }
};

ProduceRequest make_produce_request(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                                    const matrix::MatrixTensor& tensor);
inline ProduceRequest make_produce_request(PluginSession& session,
                                           const runtime::DeviceInfo& device,
                                           const matrix::MatrixTensor& tensor) {
  return make_produce_request(session.runtime(), device, tensor);
}

// The request with another shape, compact row-major (the stream cases ask
// for more elements than the matrix's 3x5).
void reshape_request(ProduceRequest& request, const std::vector<std::int64_t>& shape);

// The declared dtype, shape and flags against the request
// (DLP-PRODUCER-CONTENT in `found` where they differ); false where the
// dtype or shape differ, so that comparing elements means nothing.
bool matches_request(const ProduceRequest& request, const facts::TensorFacts& tensor,
                     CaseFindings& found);

// What one call of produce gave: a tensor, or the case's result when it gave
// none (not_supported for a decline, a DLP-PLUGIN-STATUS failure otherwise).
struct Produced {
  std::optional<CaseResult> refused;
  exchange::CapsuleOwner capsule;
};

Produced produce_once(PluginSession& session, const CaseSpec& spec, ProduceRequest& request);

}  // namespace dlpack_usm::suite
