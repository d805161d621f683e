// The DlpackUsmHost table a plugin receives: the tool's version, every root
// device with its platform's default context (the context a conformant
// library allocates in), the data pattern and a USM copy helper. Built from
// the runtime's inventory; the C functions in it reach the runtime through
// the one table of the process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dlpack_usm/plugin.h"
#include "runtime/runtime.hpp"

namespace dlpack_usm::plugin {

class HostTable {
 public:
  // Creates the default context of every platform with a root device.
  // Throws Error(environment) if one cannot be made. One table per process:
  // the C callbacks find the runtime through it.
  explicit HostTable(runtime::Runtime& runtime);
  ~HostTable();
  HostTable(const HostTable&) = delete;
  HostTable& operator=(const HostTable&) = delete;

  const DlpackUsmHost* get() const { return &host_; }

 private:
  std::vector<DlpackUsmDevice> devices_;
  std::vector<std::string> names_;
  std::vector<std::vector<void*>> sub_devices_;
  std::vector<std::vector<void*>> sycl_sub_devices_;
  std::string runtime_name_;
  DlpackUsmHost host_{};
};

// The bits of DlpackUsmDevice::usm_kinds for a device's capabilities.
std::uint32_t usm_kind_bits(const runtime::DeviceInfo& device);
std::uint32_t usm_kind_code(facts::UsmKind kind);  // DLPACK_USM_KIND_*

}  // namespace dlpack_usm::plugin
