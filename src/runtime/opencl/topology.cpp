#include "runtime/opencl/topology.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "runtime/handle_lookup.hpp"

#include "common/error.hpp"
#include "common/library_search.hpp"
#include "runtime/device_selector.hpp"
#include "runtime/opencl/device_queries.hpp"

namespace dlpack_usm::runtime::opencl {
namespace {

constexpr cl_device_partition_property kPartitionByNamesIntel = 0x4052;

// The partition request for `property` that yields the most sub-devices the
// device allows, one compute unit each where it can.
std::vector<cl_device_partition_property> partition_request(cl_device_partition_property property,
                                                            cl_uint compute_units,
                                                            cl_uint max_sub_devices) {
  cl_uint count = std::max<cl_uint>(1, std::min(compute_units, max_sub_devices));
  switch (property) {
    case CL_DEVICE_PARTITION_EQUALLY: {
      cl_uint units_each = std::max<cl_uint>(1, (compute_units + count - 1) / count);
      return {CL_DEVICE_PARTITION_EQUALLY, static_cast<cl_device_partition_property>(units_each),
              0};
    }
    case CL_DEVICE_PARTITION_BY_COUNTS: {
      std::vector<cl_device_partition_property> request{CL_DEVICE_PARTITION_BY_COUNTS};
      request.insert(request.end(), count, 1);
      request.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
      request.push_back(0);
      return request;
    }
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
      return {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE,
              0};
    default:
      return {};
  }
}

}  // namespace

Topology::Topology() {
  enumerate();
}

Topology::~Topology() {
  if (api_ == nullptr) return;
  for (RootHandles& root : roots_) {
    for (cl_device_id sub : root.sub_devices) api_->clReleaseDevice(sub);
  }
}

void Topology::enumerate() {
  std::string why;
  api_ = load_loader(&why);
  if (api_ == nullptr) {
    inventory_.problems.push_back(why);
    return;
  }

  std::optional<DeviceSelector> selector;
  const char* text = std::getenv("ONEAPI_DEVICE_SELECTOR");
  if (text != nullptr && *text == '\0') {
    // Set but empty: SYCL selects nothing then, and so does this
    // enumeration, or the two runtimes would number devices differently.
    inventory_.selector = text;
    inventory_.problems.push_back(
        "ONEAPI_DEVICE_SELECTOR is set but empty, which selects no device (as SYCL does); "
        "unset it, or give terms such as '*:cpu'");
    return;
  }
  if (text != nullptr) {
    try {
      selector = DeviceSelector::parse(text, &inventory_.warnings);
      inventory_.selector = text;
    } catch (const Error& error) {
      inventory_.problems.push_back(fmt::format("{} ({})", error.what(), error.hint()));
      return;
    }
  }

  cl_uint count = 0;
  cl_int status = api_->clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0) {
    inventory_.problems.push_back(fmt::format(
        "the OpenCL ICD loader found no platform ({}); is an OpenCL driver registered in "
        "/etc/OpenCL/vendors or named by OCL_ICD_FILENAMES?",
        status == CL_SUCCESS ? "0 platforms" : error_name(status)));
    return;
  }
  std::vector<cl_platform_id> platforms(count);
  api_->clGetPlatformIDs(count, platforms.data(), nullptr);

  int backend_index = 0;
  for (cl_uint i = 0; i < count; ++i) {
    enumerate_platform(platforms[i], static_cast<std::int32_t>(i), backend_index,
                       selector ? &*selector : nullptr);
  }
  warn_about_level_zero();
}

void Topology::enumerate_platform(cl_platform_id platform, std::int32_t platform_index,
                                  int& backend_index, const DeviceSelector* selector) {
  PlatformInfo info;
  info.index = platform_index;
  cl_int status = CL_SUCCESS;
  info.name = platform_string(*api_, platform, CL_PLATFORM_NAME, &status).value_or("");
  info.vendor = platform_string(*api_, platform, CL_PLATFORM_VENDOR).value_or("");
  info.version = platform_string(*api_, platform, CL_PLATFORM_VERSION).value_or("");
  info.icd_suffix = platform_string(*api_, platform, CL_PLATFORM_ICD_SUFFIX_KHR).value_or("");
  info.usm_extension =
      has_extension(platform_string(*api_, platform, CL_PLATFORM_EXTENSIONS).value_or(""),
                    "cl_intel_unified_shared_memory");

  PlatformHandles handles;
  handles.platform = platform;
  handles.usm = load_usm_entry_points(*api_, platform);

  cl_uint device_count = 0;
  if (status == CL_SUCCESS) {
    status = api_->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count);
  }
  std::vector<cl_device_id> devices(device_count);
  if (status == CL_SUCCESS && device_count > 0) {
    status =
        api_->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr);
  }
  if (status != CL_SUCCESS && status != CL_DEVICE_NOT_FOUND) {
    info.error = fmt::format("platform {} ('{}') failed to list its devices: {}", platform_index,
                             info.name, error_name(status));
    inventory_.problems.push_back(*info.error);
    devices.clear();
  }

  for (cl_device_id device : devices) {
    int this_backend_index = backend_index++;
    std::string type = device_type_name(*api_, device);
    if (selector != nullptr && !selector->accepts("opencl", type, this_backend_index)) continue;
    DeviceRef ref{static_cast<std::int32_t>(roots_.size()), std::nullopt};
    std::string name = fmt::format("opencl:{}:{}", type, this_backend_index);
    DeviceInfo root_info = describe_device(device, name, ref);
    RootHandles root{device, platform_index, {}, info.devices.size(), {}};
    plan_sub_devices(root_info, root);
    roots_.push_back(std::move(root));
    handles.root_devices.push_back(device);
    info.devices.push_back(std::move(root_info));
  }
  platforms_.push_back(std::move(handles));
  inventory_.platforms.push_back(std::move(info));
}

DeviceInfo Topology::describe_device(cl_device_id device, const std::string& selector_name,
                                     DeviceRef ref) {
  DeviceInfo info;
  info.ref = ref;
  info.selector_name = selector_name;
  info.type = device_type_name(*api_, device);
  info.name = device_string(*api_, device, CL_DEVICE_NAME);
  info.vendor = device_string(*api_, device, CL_DEVICE_VENDOR);
  info.driver_version = device_string(*api_, device, CL_DRIVER_VERSION);
  info.opencl_version = device_string(*api_, device, CL_DEVICE_VERSION);
  info.compute_units = device_uint(*api_, device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.usm = usm_capabilities(*api_, device);
  return info;
}

void Topology::plan_sub_devices(DeviceInfo& root_info, RootHandles& root) {
  std::vector<cl_device_partition_property> supported = partition_properties(*api_, root.device);
  for (cl_device_partition_property property : supported) {
    root_info.partition_types.push_back(partition_property_name(property));
  }
  // Partition by names is Intel's own scheme and needs names we cannot guess;
  // the first standard scheme the device offers is used.
  auto usable = std::find_if(supported.begin(), supported.end(),
                             [](auto p) { return p != kPartitionByNamesIntel; });
  if (usable == supported.end()) return;

  cl_uint max_sub_devices = device_uint(*api_, root.device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
  root.partition = partition_request(*usable, root_info.compute_units, max_sub_devices);
  root_info.partition_used = partition_property_name(*usable);
  // OpenCL's rules for the request: "as many ... as can be created, each
  // containing n compute units" (equally), one per entry (by counts).
  if (*usable == CL_DEVICE_PARTITION_EQUALLY) {
    root_info.counted_sub_devices =
        root_info.compute_units / static_cast<cl_uint>(root.partition[1]);
  } else if (*usable == CL_DEVICE_PARTITION_BY_COUNTS) {
    root_info.counted_sub_devices = root.partition.size() - 3;
  } else {
    uncountable_partition_ = true;
  }
}

void Topology::create_sub_devices(DeviceInfo& root_info, RootHandles& root) {
  root_info.counted_sub_devices.reset();
  if (root.partition.empty()) return;
  cl_uint count = 0;
  cl_int status = api_->clCreateSubDevices(root.device, root.partition.data(), 0, nullptr, &count);
  std::vector<cl_device_id> subs(count);
  if (status == CL_SUCCESS && count > 0) {
    status =
        api_->clCreateSubDevices(root.device, root.partition.data(), count, subs.data(), nullptr);
  }
  if (status != CL_SUCCESS) {
    root_info.partition_error = fmt::format("clCreateSubDevices({}) failed: {}",
                                            root_info.partition_used, error_name(status));
    return;
  }
  for (cl_uint i = 0; i < count; ++i) {
    DeviceRef ref{root_info.ref.root_index, static_cast<std::int32_t>(i)};
    root_info.sub_devices.push_back(
        describe_device(subs[i], fmt::format("{}.{}", root_info.selector_name, i), ref));
  }
  root.sub_devices = std::move(subs);
}

void Topology::make_sub_devices() const {
  std::call_once(sub_devices_made_, [this] {
    // The one place the enumeration is finished: the accessors are const
    // because callers see a finished topology, which this makes it.
    auto& self = const_cast<Topology&>(*this);
    for (RootHandles& root : self.roots_) {
      auto platform = static_cast<std::size_t>(root.platform_index);
      self.create_sub_devices(self.inventory_.platforms[platform].devices[root.position], root);
    }
  });
}

const Inventory& Topology::inventory() const {
  make_sub_devices();
  return inventory_;
}

const Inventory& Topology::root_inventory() const {
  if (uncountable_partition_) make_sub_devices();
  return inventory_;
}

const std::vector<RootHandles>& Topology::roots() const {
  make_sub_devices();
  return roots_;
}

void Topology::warn_about_level_zero() {
  // SYCL lists Level Zero devices before OpenCL ones, so where a Level Zero
  // loader or an Intel GPU is present, the ids printed here (OpenCL order)
  // would not be the ids a SYCL producer assigns.
  bool intel_gpu = false;
  for (const auto& [platform, device] : inventory_.roots()) {
    intel_gpu =
        intel_gpu || (device.type == "gpu" && device.vendor.find("Intel") != std::string::npos);
  }
  // Looked for, not loaded: a loader's constructors have no business here.
  bool level_zero = shared_library_may_be_found("libze_loader.so.1");
  if (level_zero || intel_gpu) {
    // A copy of a string made once: pushing the literal itself makes GCC 12
    // at -O3 raise a false -Warray-bounds inside std::string.
    static const std::string kLevelZeroWarning =
        "Level Zero devices may be present (a Level Zero loader or an Intel GPU was found): "
        "SYCL lists them before OpenCL devices, so a SYCL producer's kDLOneAPI device_id can "
        "differ from the opencl-icd ids shown here";
    inventory_.warnings.push_back(kLevelZeroWarning);
  }
}

cl_device_id Topology::device_handle(const DeviceRef& ref) const {
  return handle_of(roots(), ref);
}

std::optional<DeviceRef> Topology::find_ref(cl_device_id device) const {
  make_sub_devices();
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    auto root_index = static_cast<std::int32_t>(r);
    if (roots_[r].device == device) return DeviceRef{root_index, std::nullopt};
    const auto& subs = roots_[r].sub_devices;
    auto it = std::find(subs.begin(), subs.end(), device);
    if (it != subs.end()) {
      return DeviceRef{root_index, static_cast<std::int32_t>(it - subs.begin())};
    }
  }
  return std::nullopt;
}

}  // namespace dlpack_usm::runtime::opencl
