// Live cases generated for every device the runtime sees: a round trip
// through DLPack for each USM kind x dtype x layout x version (x READ_ONLY),
// sub-device exports, and the negative context cases of the exchange. A
// device without USM, or without a kind, gives not_supported cases, so that
// missing capabilities are visible rather than silently absent.
#pragma once

#include <functional>

#include "runtime/runtime.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

class LiveCaseSource final : public CaseSource {
 public:
  // The runtime is asked for only when live cases are listed or run, so a
  // child running an offline vector never starts OpenCL.
  explicit LiveCaseSource(std::function<runtime::Runtime&()> runtime)
      : runtime_(std::move(runtime)) {}

  std::string_view kind() const override { return "live"; }
  std::vector<CaseSpec> cases() override;
  CaseResult run(const CaseSpec& spec) override;

 private:
  std::function<runtime::Runtime&()> runtime_;
};

}  // namespace dlpack_usm::suite
