// The producer side of a Python library's profile (check --python-library
// MODULE): every cell of python_profile_cells.hpp made on every device
// the library has (one per DLPack device it exports on: its other devices
// that export there are aliases), each asked every request. The worker
// makes a cell's array once for its requests (their setup group: a crash
// or hang while it is made is charged to all of them) and judges each
// answer under the tensor and protocol rules.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/runtime.hpp"
#include "suite/cases/python/python_target.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// A device of the library as the profile names it: "cpu", a USM root device
// as list-devices names it ("opencl:cpu:0"), else the device type's short
// name and id ("cuda:0"); the library's index and text of the device; the
// memory its arrays export ("cpu", "device-usm", "cuda"); the library's
// other devices that export there; or, where no array could be made on it,
// the error.
struct LibraryDevice {
  std::string name;
  int index = 0;
  std::string library_device;
  std::string memory;
  std::vector<std::string> aliases;
  std::string error;  // no array could be made there: why
};

// The tool's name of DLPack device `device` ([type, id]): "cpu", a USM root
// device as list-devices names it, else the type's short name and id.
std::string dlpack_device_name(const nlohmann::json& device, const runtime::Inventory& inventory);

// The devices to profile, from the probe's description ("devices").
std::vector<LibraryDevice> profiled_devices(const nlohmann::json& description,
                                            const runtime::Inventory& inventory);

class PythonProfileCaseSource final : public CaseSource {
 public:
  PythonProfileCaseSource(std::function<runtime::Runtime&()> runtime, PythonTarget target,
                          nlohmann::json description)
      : runtime_(std::move(runtime)),
        target_(std::move(target)),
        description_(std::move(description)) {}

  std::string_view kind() const override { return "python-profile"; }
  std::vector<CaseSpec> cases() override;
  // Its cases run in Python workers: a call here is the tool's bug.
  CaseResult run(const CaseSpec& spec) override;

 private:
  std::function<runtime::Runtime&()> runtime_;
  PythonTarget target_;
  nlohmann::json description_;
};

}  // namespace dlpack_usm::suite
