// dlpack-usm exchange: one real round trip of a USM allocation through
// DLPack (allocate, fill, export, dump, import, verify), step by step.
#include <algorithm>
#include <charconv>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "cli/number_options.hpp"
#include "cli/runtime_option.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/suggest.hpp"
#include "dlpack/names.hpp"
#include "exchange/capsule_save.hpp"
#include "exchange/round_trip.hpp"
#include "report/exchange_report.hpp"
#include "runtime/selection.hpp"

namespace dlpack_usm::cli {
namespace {

struct ExchangeOptions {
  std::string device;
  std::optional<std::int32_t> sub_device;
  std::string usm = "device";
  std::string dtype = "float32";
  std::string shape = "4,250";
  std::string order = "C";
  std::string max_version = "1.3";
  bool read_only = false;
  std::string save;
  bool json = false;
  std::string runtime = "auto";
};

std::int64_t parse_integer(std::string_view text, std::string_view what) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    fail_usage(fmt::format("{} '{}' is not an integer", what, text));
  }
  return value;
}

// "4,250"; "" or "scalar" for ndim 0.
std::vector<std::int64_t> parse_shape(const std::string& text) {
  std::vector<std::int64_t> shape;
  if (text.empty() || text == "scalar") return shape;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string_view part(text.data() + start,
                          (comma == std::string::npos ? text.size() : comma) - start);
    std::int64_t extent = parse_integer(part, "--shape extent");
    if (extent < 0) fail_usage(fmt::format("--shape extent {} is negative", extent));
    shape.push_back(extent);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return shape;
}

// The dtypes a round trip can use: every dtype of the table whose elements
// are whole bytes, as the pattern is written and read back byte by byte.
std::vector<std::string> exchange_dtype_names() {
  std::vector<std::string> names;
  for (const std::string& name : dlpack::dtype_names()) {
    if (dlpack::parse_dtype(name)->bits % 8 == 0) names.push_back(name);
  }
  return names;
}

// --dtype, one of exchange_dtype_names(); anything else is a usage error
// naming the value and the closest names (float33, float128, flot32).
dlpack::DLDataType require_exchange_dtype(const std::string& text) {
  std::vector<std::string> usable = exchange_dtype_names();
  std::string hint = fmt::format("the dtypes exchange can use: {}", fmt::join(usable, ", "));
  if (std::optional<dlpack::DLDataType> dtype = dlpack::parse_dtype(text)) {
    std::span<const unsigned> widths = dlpack::valid_bits(dtype->code);
    bool defined = std::find(widths.begin(), widths.end(), dtype->bits) != widths.end();
    if (defined && dtype->bits % 8 == 0) return *dtype;
    if (defined) {
      fail_usage(
          fmt::format("--dtype {} is narrower than a byte; the round trip reads whole bytes", text),
          hint);
    }
  }
  fail_usage(fmt::format("--dtype '{}' is not a dtype exchange can use{}", text,
                         did_you_mean(text, usable)),
             hint);
}

// The device named by --device (and --sub-device), or the first device with
// cl_intel_unified_shared_memory.
const runtime::DeviceInfo& resolve_device(const runtime::Inventory& inventory,
                                          const ExchangeOptions& options) {
  const runtime::DeviceInfo* device = nullptr;
  if (options.device.empty()) {
    for (const auto& [platform, root] : inventory.roots()) {
      if (device == nullptr && root.usm) device = &root;
    }
    if (device == nullptr) {
      fail_environment(fmt::format("no {} device can allocate USM", inventory.backend),
                       "'dlpack-usm list-devices' shows the devices; install a runtime with USM");
    }
  } else {
    device = inventory.find(options.device);
    if (device == nullptr) {
      fail_environment(fmt::format("there is no device '{}'{}", options.device,
                                   did_you_mean(options.device, inventory.device_names())),
                       "'dlpack-usm list-devices' shows the devices and their names");
    }
  }
  if (options.sub_device) {
    if (device->ref.sub_index) {
      fail_usage(fmt::format("'{}' is already a sub-device; drop --sub-device or name its root",
                             device->selector_name));
    }
    const runtime::DeviceInfo* sub =
        inventory.find(runtime::DeviceRef{device->ref.root_index, *options.sub_device});
    if (sub == nullptr) {
      fail_environment(
          fmt::format("{} has no sub-device {}", device->selector_name, *options.sub_device),
          "'dlpack-usm list-devices' shows the sub-devices the tool creates");
    }
    device = sub;
  }
  if (!device->usm) {
    fail_environment(fmt::format("{} ({}) cannot allocate USM on the {} runtime",
                                 device->selector_name, device->name, inventory.backend),
                     "pick a device whose list-devices entry shows USM capabilities");
  }
  return *device;
}

exchange::RoundTripRequest make_request(const ExchangeOptions& options) {
  exchange::RoundTripRequest request;
  auto kind = facts::parse_usm_kind(options.usm);
  if (!kind || *kind == facts::UsmKind::unknown) {
    fail_usage(fmt::format("--usm '{}' is not host, device or shared{}", options.usm,
                           did_you_mean(options.usm, {"host", "device", "shared"})));
  }
  request.kind = *kind;
  request.dtype = require_exchange_dtype(options.dtype);
  request.shape = parse_shape(options.shape);
  auto order = exchange::parse_order(options.order);
  if (!order) {
    fail_usage(
        fmt::format("--order '{}' is not C, F, strided, offset or negative{}", options.order,
                    did_you_mean(options.order, {"C", "F", "strided", "offset", "negative"})));
  }
  request.order = *order;
  request.options.max_version = dlpack::require_max_version(options.max_version, "--max-version");
  request.options.read_only = options.read_only;
  return request;
}

void run_exchange(const ExchangeOptions& options, Invocation& invocation) {
  // Parse everything before touching a device, so usage errors come first.
  exchange::RoundTripRequest request = make_request(options);
  if (!options.save.empty()) resolve_output(options.save, "--save");
  runtime::Runtime& runtime = start_runtime(options.runtime);
  const runtime::Inventory& inventory = runtime.inventory();
  for (const std::string& problem : inventory.problems) print_warning(problem);
  request.device = resolve_device(inventory, options).ref;

  exchange::RoundTripReport report = exchange::run_round_trip(runtime, request);
  print_report(options.json,
               [&report](report::Printer& printer) { report::print_exchange(printer, report); });
  if (report.refused_at) print_error(report.refusal, report.refusal_hint);
  if (!options.save.empty()) {
    if (report.exported) {
      exchange::save_capsule_file(options.save, *report.exported);
      if (!options.json) fmt::print("saved the exported tensor as capsule file {}\n", options.save);
    } else {
      print_warning(fmt::format("nothing saved to {}: export was refused", options.save));
    }
  }
  invocation.exit_code = static_cast<int>(report::decide_exit_code(report));
}

}  // namespace

void add_exchange_command(CLI::App& app, Invocation& invocation) {
  auto* command = app.add_subcommand(
      "exchange",
      "Allocate USM on a device, fill it, export it as DLPack, import it back and verify the "
      "data and zero copy");
  auto options = std::make_shared<ExchangeOptions>();
  command
      ->add_option("--device", options->device,
                   "Device by list-devices name (opencl:cpu:0, or a sub-device opencl:cpu:0.1); "
                   "default: the first device with USM")
      ->type_name("DEVICE");
  command
      ->add_option("--sub-device", options->sub_device,
                   "Allocate on this sub-device of --device (its position among the "
                   "sub-devices list-devices shows)")
      ->check(whole_number("a sub-device position", 0, std::numeric_limits<std::int32_t>::max(),
                           "give 0 for the first sub-device, 1 for the second, ..."))
      ->type_name("M");
  command->add_option("--usm", options->usm, "USM kind: host, device or shared")
      ->capture_default_str()
      ->type_name("KIND");
  command
      ->add_option("--dtype", options->dtype,
                   "Element type (int8, float16, bfloat16, float32, float64, complex128, ...)")
      ->capture_default_str()
      ->type_name("DTYPE");
  command
      ->add_option("--shape", options->shape,
                   "Extents separated by commas; \"\" or 'scalar' for ndim 0")
      ->capture_default_str()
      ->type_name("EXTENTS");
  command
      ->add_option("--order", options->order,
                   "Layout: C, F, strided (every other column), offset (byte_offset), "
                   "negative (first axis flipped)")
      ->capture_default_str()
      ->type_name("ORDER");
  command
      ->add_option("--max-version", options->max_version,
                   "Newest DLPack version the consumer reads; below 1.0 gives a legacy "
                   "DLManagedTensor")
      ->capture_default_str()
      ->type_name("MAJOR.MINOR");
  command->add_flag("--read-only", options->read_only, "Export with the READ_ONLY flag");
  command
      ->add_option("--save", options->save,
                   "Write the exported tensor (with what the runtime says about it) as a "
                   "capsule file")
      ->type_name("FILE");
  command->add_flag("--json", options->json, "Print one JSON document instead of the steps");
  add_runtime_option(command, &options->runtime);
  command->callback([options, &invocation] { run_exchange(*options, invocation); });
}

}  // namespace dlpack_usm::cli
