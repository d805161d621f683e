// runtimes_bench: the two runtimes side by side in one run. For OpenCL and
// for SYCL (dpctl's C interface): how long the first enumeration takes, the
// devices each lists with the kDLOneAPI id it gives them, and one
// export+import round trip (allocate, fill, export, import, verify) of the
// same tensor on the same device, with its median time. Where the two
// disagree on an id, that is the reason --runtime exists.
// Options: --samples N (default 50), --usm KIND (default device).
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/round_trip.hpp"
#include "median_timer.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::bench {
namespace {

struct Column {
  std::string name;
  runtime::Runtime* runtime = nullptr;
  double enumeration_ms = 0;
  std::string why_absent;
};

Column start(const std::string& name) {
  Column column;
  column.name = name;
  auto started = std::chrono::steady_clock::now();
  if (name == "opencl") {
    column.runtime = &runtime::opencl_runtime();
  } else {
    column.runtime = runtime::sycl_runtime_or_null(&column.why_absent);
  }
  if (column.runtime != nullptr) column.runtime->inventory();
  column.enumeration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return column;
}

std::vector<std::string> device_lines(const runtime::Inventory& inventory) {
  std::vector<std::string> lines;
  for (const auto& [platform, root] : inventory.roots()) {
    lines.push_back(fmt::format("{} {} ({}{})", root.dlpack_device_id(), root.selector_name,
                                root.name, root.usm ? "" : ", no USM"));
    for (const runtime::DeviceInfo& sub : root.sub_devices) {
      lines.push_back(fmt::format("  ({}) {}", sub.dlpack_device_id(), sub.selector_name));
    }
  }
  return lines;
}

const runtime::DeviceInfo* first_usm_root(const runtime::Inventory& inventory) {
  for (const auto& [platform, root] : inventory.roots()) {
    if (root.usm) return &root;
  }
  return nullptr;
}

// One round trip, then its median over `samples`; "-" where it cannot run.
std::vector<std::string> round_trip_lines(const Column& column, facts::UsmKind kind,
                                          std::uint64_t samples) {
  if (column.runtime == nullptr) return {"-"};
  const runtime::DeviceInfo* device = first_usm_root(column.runtime->inventory());
  if (device == nullptr) return {"no device with USM"};
  exchange::RoundTripRequest request;
  request.device = device->ref;
  request.kind = kind;
  request.shape = {4, 250};
  exchange::RoundTripReport report = exchange::run_round_trip(*column.runtime, request);
  Timing timing = measure(
      samples, 1, [](std::uint64_t) {},
      [&](std::uint64_t) { exchange::run_round_trip(*column.runtime, request); });
  return {fmt::format("{} {} float32[4,250]", device->selector_name, facts::to_string(kind)),
          fmt::format("device_id {}, {} elements checked: {}", report.expected_device_id,
                      report.elements_checked, report.ok() ? "ok" : "FAILED"),
          fmt::format("median {:.1f} us (min {:.1f}, {} samples)", timing.median_ns / 1e3,
                      timing.min_ns / 1e3, timing.samples)};
}

void print_side_by_side(const std::string& title, const std::vector<std::string>& left,
                        const std::vector<std::string>& right) {
  fmt::print("\n{}\n", title);
  std::size_t rows = std::max(left.size(), right.size());
  for (std::size_t i = 0; i < rows; ++i) {
    fmt::print("  {:<52} | {}\n", i < left.size() ? left[i] : "", i < right.size() ? right[i] : "");
  }
}

int run(int argc, char** argv) {
  std::uint64_t samples = 50;
  facts::UsmKind kind = facts::UsmKind::device;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--samples") == 0) {
      samples = std::stoull(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--usm") == 0) {
      auto parsed = facts::parse_usm_kind(argv[i + 1]);
      if (!parsed || *parsed == facts::UsmKind::unknown)
        fail_usage("--usm: host, device or shared");
      kind = *parsed;
    } else {
      fail_usage(fmt::format("unknown option '{}'", argv[i]), "options: --samples N, --usm KIND");
    }
  }
  Column opencl = start("opencl");
  Column sycl = start("sycl");
  fmt::print("{:<54} | {}\n", "runtime opencl (ordering model opencl-icd)",
             "runtime sycl (ordering model sycl-get-devices)");
  print_side_by_side(
      "first enumeration", {fmt::format("{:.1f} ms", opencl.enumeration_ms)},
      {sycl.runtime ? fmt::format("{:.1f} ms (with finding dpctl)", sycl.enumeration_ms)
                    : "not available: " + sycl.why_absent});
  print_side_by_side(
      "list-devices: id name",
      opencl.runtime ? device_lines(opencl.runtime->inventory()) : std::vector<std::string>{"-"},
      sycl.runtime ? device_lines(sycl.runtime->inventory()) : std::vector<std::string>{"-"});
  print_side_by_side("export + import round trip", round_trip_lines(opencl, kind, samples),
                     round_trip_lines(sycl, kind, samples));
  return 0;
}

}  // namespace
}  // namespace dlpack_usm::bench

int main(int argc, char** argv) {
  try {
    return dlpack_usm::bench::run(argc, argv);
  } catch (const dlpack_usm::Error& error) {
    fmt::print(stderr, "runtimes_bench: error: {}\n", error.what());
    return static_cast<int>(error.code());
  }
}
