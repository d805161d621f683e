// exchange_bench: what export and import cost per tensor, next to the raw
// runtime queries they are made of, and proof that the exchange is zero
// copy: a round trip of a 1 GiB buffer costs what one of 4 KiB costs.
// Prints one JSON document. Options: --device NAME (default: the first
// device with USM), --samples N (default 200), --large-mib M (default 1024).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build_info.hpp"
#include "common/error.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "facts/memory_reader.hpp"
#include "median_timer.hpp"
#include "rules/rule.hpp"
#include "runtime/opencl/loader.hpp"
#include "runtime/opencl/usm_entry_points.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::bench {
namespace {

using nlohmann::ordered_json;

struct Options {
  std::string device;
  std::uint64_t samples = 200;
  std::uint64_t large_mib = 1024;
};

std::uint64_t parse_count(const char* text, const char* option) {
  std::uint64_t value = 0;
  const char* end = text + std::strlen(text);
  auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc() || stop != end || value == 0) {
    fail_usage(fmt::format("{} '{}' is not a positive integer", option, text));
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string option = argv[i];
    if (i + 1 >= argc) fail_usage(fmt::format("{} needs a value", option));
    const char* value = argv[++i];
    if (option == "--device") {
      options.device = value;
    } else if (option == "--samples") {
      options.samples = parse_count(value, "--samples");
    } else if (option == "--large-mib") {
      options.large_mib = parse_count(value, "--large-mib");
    } else {
      fail_usage(fmt::format("unknown option '{}'", option),
                 "options: --device NAME, --samples N, --large-mib M");
    }
  }
  return options;
}

struct CallCounts {
  std::uint64_t queries = 0;
  std::uint64_t default_contexts = 0;
  std::uint64_t copies = 0;
};

// Forwards to the real runtime and counts the queries export and import
// make, so the report can say what each is made of.
class CountingRuntime final : public runtime::Runtime {
 public:
  explicit CountingRuntime(runtime::Runtime& inner) : inner_(inner) {}
  const runtime::Inventory& inventory() const override { return inner_.inventory(); }
  runtime::ContextRef default_context(std::int32_t platform) override {
    ++counts.default_contexts;
    return inner_.default_context(platform);
  }
  runtime::UsmBuffer allocate(const runtime::DeviceRef& device, facts::UsmKind kind,
                              std::size_t bytes, runtime::ContextChoice context) override {
    // The buffer is bound to the inner runtime, which also frees it.
    return inner_.allocate(device, kind, bytes, context);
  }
  runtime::PointerInfo query(const void* ptr, const runtime::ContextRef& context) override {
    ++counts.queries;
    return inner_.query(ptr, context);
  }
  void copy(const runtime::ContextRef& context, const runtime::DeviceRef& device, void* to,
            const void* from, std::size_t bytes) override {
    ++counts.copies;
    inner_.copy(context, device, to, from, bytes);
  }
  runtime::NativeHandles native_handles(const runtime::DeviceRef& device) const override {
    return inner_.native_handles(device);
  }
  runtime::ConsumerQueue make_consumer_queue(const runtime::ContextRef& context,
                                             const runtime::DeviceRef& device,
                                             runtime::QueueOrder order) override {
    return inner_.make_consumer_queue(context, device, order);
  }
  void read_on_queue(const runtime::ConsumerQueue& queue, void* destination, const void* source,
                     std::size_t bytes) override {
    inner_.read_on_queue(queue, destination, source, bytes);
  }
  std::string call_name(runtime::RuntimeCall call, facts::UsmKind kind) const override {
    return inner_.call_name(call, kind);
  }
  CallCounts counts;

 protected:
  // Never reached: every buffer comes from inner_.allocate() and goes back there.
  void release(void*, const runtime::ContextRef&) noexcept override {}
  // Never reached either: the queues are inner_'s, and go back to it.
  void release_queue(void*) noexcept override {}

 private:
  runtime::Runtime& inner_;
};

const runtime::DeviceInfo& pick_device(const runtime::Inventory& inventory,
                                       const std::string& name) {
  for (const auto& [platform, root] : inventory.roots()) {
    if ((name.empty() || root.selector_name == name) && root.usm) return root;
    for (const runtime::DeviceInfo& sub : root.sub_devices) {
      if (!name.empty() && sub.selector_name == name && sub.usm) return sub;
    }
  }
  fail_environment(name.empty() ? std::string("no OpenCL device has USM")
                                : fmt::format("no device '{}' with USM", name),
                   "'dlpack-usm list-devices' shows the devices");
}

// The raw extension entry point the runtime's query calls four times.
runtime::opencl::UsmEntryPoints raw_entry_points(std::int32_t platform_index) {
  std::string why;
  const runtime::opencl::LoaderApi* cl = runtime::opencl::load_loader(&why);
  if (cl == nullptr) fail_environment(why);
  cl_uint count = 0;
  cl->clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  cl->clGetPlatformIDs(count, platforms.data(), nullptr);
  if (platform_index < 0 || static_cast<cl_uint>(platform_index) >= count) {
    fail_environment("the platform vanished");
  }
  return runtime::opencl::load_usm_entry_points(
      *cl, platforms[static_cast<std::size_t>(platform_index)]);
}

ordered_json timing_json(const Timing& timing) {
  return {{"median_ns", timing.median_ns},
          {"min_ns", timing.min_ns},
          {"samples", timing.samples},
          {"batch", timing.batch}};
}

exchange::ExportRequest request_for(const runtime::UsmBuffer& buffer, std::int64_t elements) {
  exchange::ExportRequest request;
  request.data = buffer.data();
  request.context = buffer.context();
  request.shape = {elements};
  return request;
}

// Export, import and release the view: the whole exchange of one tensor,
// `batch` times.
std::function<void(std::uint64_t)> round_trips(runtime::Runtime& runtime,
                                               const runtime::UsmBuffer& buffer) {
  return [&runtime, &buffer](std::uint64_t batch) {
    auto request = request_for(buffer, static_cast<std::int64_t>(buffer.size() / 4));
    for (std::uint64_t i = 0; i < batch; ++i) {
      exchange::ImportedView view =
          exchange::import_tensor(runtime, exchange::export_tensor(runtime, request, {}).capsule);
      if (view.data() != buffer.data()) throw Error(ExitCode::internal, "the exchange copied");
    }
  };
}

ordered_json run(const Options& options) {
  runtime::Runtime& real = runtime::opencl_runtime();
  const runtime::DeviceInfo& device = pick_device(real.inventory(), options.device);
  const runtime::PlatformInfo* platform = real.inventory().platform_of(device.ref);
  const std::uint64_t samples = options.samples;

  runtime::UsmBuffer small = real.allocate(device.ref, facts::UsmKind::device, 4096,
                                           runtime::ContextChoice::platform_default);
  runtime::ContextRef context = small.context();
  auto request = request_for(small, 1024);

  ordered_json json;
  json["tool_version"] = kToolVersion;
  json["device"] = {{"selector", device.selector_name},
                    {"name", device.name},
                    {"vendor", device.vendor},
                    {"driver_version", device.driver_version},
                    {"platform", platform ? platform->name : ""}};
  json["usm_kind"] = "device";
  json["unit"] = "nanoseconds per operation (median of samples; batches divided)";

  // The runtime queries, raw and as the runtime wraps them.
  auto raw = raw_entry_points(context.platform_index);
  if (raw.get_alloc_info == nullptr) fail_environment("no clGetMemAllocInfoINTEL");
  cl_unified_shared_memory_type_intel type = 0;
  auto cl_context_handle = static_cast<cl_context>(context.handle);
  Timing raw_type = measure(samples, 1000, {}, [&](std::uint64_t batch) {
    for (std::uint64_t i = 0; i < batch; ++i) {
      raw.get_alloc_info(cl_context_handle, small.data(), CL_MEM_ALLOC_TYPE_INTEL, sizeof(type),
                         &type, nullptr);
    }
  });
  Timing query = measure(samples, 1000, {}, [&](std::uint64_t batch) {
    for (std::uint64_t i = 0; i < batch; ++i) real.query(small.data(), context);
  });
  Timing default_context = measure(samples, 1000, {}, [&](std::uint64_t batch) {
    for (std::uint64_t i = 0; i < batch; ++i) real.default_context(context.platform_index);
  });
  json["runtime"] = {{"clGetMemAllocInfoINTEL(CL_MEM_ALLOC_TYPE_INTEL)", timing_json(raw_type)},
                     {"Runtime::query (4 clGetMemAllocInfoINTEL calls)", timing_json(query)},
                     {"Runtime::default_context", timing_json(default_context)}};

  // The pure parts both export and import run on every tensor.
  exchange::ExportedTensor sample = exchange::export_tensor(real, request, {});
  Timing reader = measure(samples, 1000, {}, [&](std::uint64_t batch) {
    for (std::uint64_t i = 0; i < batch; ++i) {
      facts::read_managed_tensor_versioned(sample.capsule.versioned(), "bench");
    }
  });
  Timing rule_engine = measure(samples, 200, {}, [&](std::uint64_t batch) {
    for (std::uint64_t i = 0; i < batch; ++i) rules::evaluate(sample.facts);
  });
  json["pure"] = {{"facts::read_managed_tensor_versioned", timing_json(reader)},
                  {"rules::evaluate", timing_json(rule_engine)}};

  // Export and import, each alone; what they ask the runtime is counted.
  CountingRuntime counting(real);
  std::vector<exchange::ExportedTensor> exported;
  Timing export_timing = measure(
      samples, 100, [&](std::uint64_t batch) { exported.reserve(batch); },
      [&](std::uint64_t batch) {
        for (std::uint64_t i = 0; i < batch; ++i) {
          exported.push_back(exchange::export_tensor(real, request, {}));
        }
      },
      [&] { exported.clear(); });
  std::vector<exchange::CapsuleOwner> capsules;
  std::vector<exchange::ImportedView> views;
  Timing import_timing = measure(
      samples, 100,
      [&](std::uint64_t batch) {
        for (std::uint64_t i = 0; i < batch; ++i) {
          capsules.push_back(std::move(exchange::export_tensor(real, request, {}).capsule));
        }
        views.reserve(batch);
      },
      [&](std::uint64_t batch) {
        for (std::uint64_t i = 0; i < batch; ++i) {
          views.push_back(exchange::import_tensor(real, std::move(capsules[i])));
        }
      },
      [&] {
        views.clear();
        capsules.clear();
      });
  exchange::ExportedTensor counted = exchange::export_tensor(counting, request, {});
  const CallCounts export_calls = counting.counts;
  counting.counts = CallCounts{};
  exchange::ImportedView counted_view =
      exchange::import_tensor(counting, std::move(counted.capsule));
  const CallCounts import_calls = counting.counts;
  // How much of each operation the runtime queries it makes account for.
  auto query_share = [&](const CallCounts& calls, const Timing& whole) {
    return (static_cast<double>(calls.queries) * query.median_ns +
            static_cast<double>(calls.default_contexts) * default_context.median_ns) /
           whole.median_ns;
  };
  auto calls_json = [](const CallCounts& calls) {
    return ordered_json{{"Runtime::query", calls.queries},
                        {"Runtime::default_context", calls.default_contexts},
                        {"Runtime::copy", calls.copies}};
  };
  json["exchange"] = {
      {"export", timing_json(export_timing)},
      {"import", timing_json(import_timing)},
      {"export_runtime_calls", calls_json(export_calls)},
      {"import_runtime_calls", calls_json(import_calls)},
      {"export_share_of_runtime_queries", query_share(export_calls, export_timing)},
      {"import_share_of_runtime_queries", query_share(import_calls, import_timing)}};

  // Zero copy: the round trip does not depend on the buffer's size.
  std::uint64_t large_bytes = options.large_mib << 20;
  runtime::UsmBuffer large = real.allocate(device.ref, facts::UsmKind::device, large_bytes,
                                           runtime::ContextChoice::platform_default);
  // Real data in every page, written through the device in 64 MiB pieces,
  // so the large buffer is resident and not a promise of zero pages.
  constexpr std::uint64_t kPiece = 64ULL << 20;
  std::vector<std::byte> staging(std::min(kPiece, large_bytes), std::byte{0x3C});
  for (std::uint64_t at = 0; at < large_bytes; at += staging.size()) {
    real.copy(large.context(), device.ref, static_cast<std::byte*>(large.data()) + at,
              staging.data(), std::min<std::uint64_t>(staging.size(), large_bytes - at));
  }
  auto [small_trip, large_trip] =
      measure_interleaved(samples, 20, round_trips(real, small), round_trips(real, large));
  // What a copying exchange would pay: the device's copy bandwidth, measured
  // on one piece, scaled to the large buffer.
  Timing piece_copy = measure(5, 1, {}, [&](std::uint64_t) {
    real.copy(large.context(), device.ref, staging.data(), large.data(), staging.size());
  });
  double bytes_per_ns = static_cast<double>(staging.size()) / piece_copy.median_ns;
  json["zero_copy"] = {
      {"small_bytes", small.size()},
      {"large_bytes", large.size()},
      {"round_trip_small", timing_json(small_trip)},
      {"round_trip_large", timing_json(large_trip)},
      {"large_over_small", large_trip.median_ns / small_trip.median_ns},
      {"large_over_small_min", large_trip.min_ns / small_trip.min_ns},
      {"copy_piece", {{"bytes", staging.size()}, {"timing", timing_json(piece_copy)}}},
      {"copy_bytes_per_ns", bytes_per_ns},
      {"large_copy_estimate_ns", static_cast<double>(large_bytes) / bytes_per_ns},
      {"note",
       "a round trip is export + import + release of the view; large_copy_estimate_ns is what "
       "copying the large buffer once would cost at the measured copy bandwidth"}};
  return json;
}

}  // namespace
}  // namespace dlpack_usm::bench

int main(int argc, char** argv) {
  using dlpack_usm::Error;
  try {
    auto options = dlpack_usm::bench::parse_options(argc, argv);
    std::puts(dlpack_usm::bench::run(options)
                  .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  .c_str());
    return 0;
  } catch (const Error& error) {
    std::fprintf(stderr, "exchange_bench: error: %s\n", error.what());
    if (!error.hint().empty())
      std::fprintf(stderr, "exchange_bench: hint: %s\n", error.hint().c_str());
    return static_cast<int>(error.code());
  }
}
