// ONEAPI_DEVICE_SELECTOR, the oneAPI variable that filters (and so renumbers)
// the devices SYCL lists. The tool applies it to OpenCL root devices so that
// the kDLOneAPI ids it prints match what a SYCL program would see.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlpack_usm::runtime {

struct SelectorTerm {
  bool exclude = false;              // "!opencl:gpu"
  std::string backend;               // "opencl", "level_zero", "*", ...
  std::vector<std::string> devices;  // "*", "cpu", "gpu", "fpga", "0", "1.2"
};

class DeviceSelector {
 public:
  // Throws Error(usage) naming the bad term. Sub-device terms ("0.1") are
  // kept but match no root device; `warnings` says so.
  static DeviceSelector parse(std::string_view text, std::vector<std::string>* warnings);

  // Whether a root device of `backend`, of OpenCL type `type` ("cpu", "gpu",
  // "accelerator") and at position `backend_index` among that backend's
  // devices, is visible. Mirrors DPC++: with no accepting term, every device
  // not excluded is visible; otherwise it must be accepted and not excluded.
  bool accepts(std::string_view backend, std::string_view type, int backend_index) const;

  const std::vector<SelectorTerm>& terms() const { return terms_; }

 private:
  std::vector<SelectorTerm> terms_;
};

}  // namespace dlpack_usm::runtime
