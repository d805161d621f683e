// Peak memory (resident set) of the real binary on large inputs, next to the
// size of the input: `capsule check` on a 64 MiB capsule file (JSON lines
// of tensors with long shapes) and a 1 GiB `exchange` round trip, whose
// bound is 1.1x the buffer. The exchange's row also gives what it holds
// beyond the same exchange of 4 KiB (the drivers' code and the tool's own,
// about 175 MiB with Intel's CPU runtime and PoCL loaded): what the buffer
// costs. Beside it, the same round trip through OpenCL by the tool and by
// exchange_floor.c, a program that does nothing else, with every ICD the
// loader lists and with the device's ICD alone: what the runtimes hold
// whoever calls them. Prints JSON. Not a test: the ratios are figures to
// watch.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "child_run.hpp"

namespace {

using dlpack_usm::bench::ChildRun;
using dlpack_usm::bench::run_child;

// JSON lines of 1.3 tensors whose shapes and strides are long: the text
// that costs a reader memory, and one finding each (NULL data with an
// element: DLP-DATA-NULL) that costs a report memory. Returns the bytes
// written; `line_bytes` gets one tensor's.
std::uintmax_t write_capsule_file(const std::filesystem::path& path, std::uintmax_t bytes,
                                  std::uintmax_t& line_bytes) {
  std::string shape, strides;
  for (int i = 0; i < 64; ++i) {
    shape += fmt::format("{}{}", i ? ", " : "", 1);
    strides += fmt::format("{}{}", i ? ", " : "", 1);
  }
  std::string line = fmt::format(
      R"({{"version": {{"major": 1, "minor": 3}}, "flags": 0, "dl_tensor": {{"data": null, )"
      R"("device": {{"device_type": "kDLCPU", "device_id": 0}}, "ndim": 64, "dtype": "float32", )"
      R"("shape": [{}], "strides": [{}]}}}})"
      "\n",
      shape, strides);
  line_bytes = line.size();
  std::ofstream out(path);
  std::uintmax_t written = 0;
  while (written + line.size() <= bytes) {
    out << line;
    written += line.size();
  }
  return written;
}

nlohmann::json row(const char* what, std::uintmax_t input_bytes, const ChildRun& usage) {
  double peak_bytes = static_cast<double>(usage.peak_kib) * 1024.0;
  return {{"what", what},
          {"exit_code", usage.exit_code},
          {"input_mib", static_cast<double>(input_bytes) / (1 << 20)},
          {"peak_rss_mib", peak_bytes / (1 << 20)},
          {"peak_over_input", peak_bytes / static_cast<double>(input_bytes)}};
}

// The exchange's row: its peak over the buffer against the bound, and the
// growth over a 4 KiB exchange over the buffer.
nlohmann::json exchange_row(std::uintmax_t buffer_bytes, const ChildRun& large,
                            const ChildRun& small) {
  constexpr double kBound = 1.1;
  nlohmann::json out = row("exchange, 1 GiB device USM round trip", buffer_bytes, large);
  double ratio = out["peak_over_input"].get<double>();
  double growth = static_cast<double>(large.peak_kib - small.peak_kib) * 1024.0;
  out["bound"] = kBound;
  out["within"] = ratio <= kBound;
  out["peak_rss_of_a_4_kib_exchange_mib"] = static_cast<double>(small.peak_kib) / 1024;
  out["growth_over_4_kib_exchange_over_input"] = growth / static_cast<double>(buffer_bytes);
  return out;
}

// On `device`, or where it is empty on exchange's own default, the first
// device with USM (the GPU machine's is opencl:cpu:1, behind NVIDIA's);
// through `runtime` where one is named.
ChildRun run_exchange(const std::string& tool, const std::string& device, std::uintmax_t bytes,
                      const std::string& runtime = "") {
  std::vector<std::string> argv{tool,      "exchange", "--usm",   "device",
                                "--dtype", "float32",  "--shape", std::to_string(bytes / 4),
                                "--order", "C"};
  if (!device.empty()) argv.insert(argv.begin() + 2, {"--device", device});
  if (!runtime.empty()) argv.insert(argv.begin() + 2, {"--runtime", runtime});
  return run_child(argv);
}

// exchange_floor's round trip of `bytes` with the device's ICD alone: the
// loader is pointed (OCL_ICD_VENDORS) at a folder holding one .icd file
// that names the library `icd_path` says the first run found.
ChildRun run_floor_alone(std::uintmax_t bytes, const std::filesystem::path& icd_path) {
  std::ifstream in(icd_path);
  std::string library;
  std::getline(in, library);
  if (library.empty()) return {};
  std::filesystem::path folder = icd_path.string() + ".vendors";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "floor.icd") << library << "\n";
  std::string filenames = std::getenv("OCL_ICD_FILENAMES") ? std::getenv("OCL_ICD_FILENAMES") : "";
  unsetenv("OCL_ICD_FILENAMES");
  setenv("OCL_ICD_VENDORS", folder.c_str(), 1);
  ChildRun alone = run_child({DLPACK_USM_EXCHANGE_FLOOR, std::to_string(bytes)});
  unsetenv("OCL_ICD_VENDORS");
  if (!filenames.empty()) setenv("OCL_ICD_FILENAMES", filenames.c_str(), 1);
  std::filesystem::remove_all(folder);
  return alone;
}

// The tool's round trip through OpenCL next to exchange_floor's, with every
// ICD and with the device's alone (exchange's default device only).
nlohmann::json floor_rows(const std::string& tool, std::uintmax_t bytes) {
  ChildRun tool_opencl = run_exchange(tool, "", bytes, "opencl");
  std::filesystem::path icd_path =
      std::filesystem::temp_directory_path() / fmt::format("dlpack-usm-floor-{}.icd", getpid());
  ChildRun every = run_child({DLPACK_USM_EXCHANGE_FLOOR, std::to_string(bytes), icd_path.string()});
  ChildRun alone = run_floor_alone(bytes, icd_path);
  std::filesystem::remove(icd_path);
  nlohmann::json tool_row =
      row("exchange --runtime opencl, the same round trip", bytes, tool_opencl);
  tool_row["over_the_floor_mib"] =
      static_cast<double>(tool_opencl.peak_kib - every.peak_kib) / 1024;
  return {tool_row,
          row("exchange_floor: the same round trip and nothing else, every ICD", bytes, every),
          row("exchange_floor, the device's ICD alone (OCL_ICD_VENDORS)", bytes, alone)};
}

}  // namespace

int main(int argc, char** argv) {
  // memory_bench [TOOL [DEVICE]]: DEVICE is a list-devices name with USM
  // (default: the first device with USM, as exchange picks it).
  std::string tool = argc > 1 ? argv[1] : DLPACK_USM_TOOL;
  std::string device = argc > 2 ? argv[2] : "";
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / fmt::format("dlpack-usm-memory-{}.jsonl", getpid());
  // The largest file `capsule check` reads: 64 MiB; and one tensor of it,
  // the baseline the window is measured against.
  std::uintmax_t tensor_bytes = 0;
  std::uintmax_t capsule_bytes = write_capsule_file(file, std::uintmax_t{64} << 20, tensor_bytes);
  ChildRun check = run_child({tool, "capsule", "check", file.string()});
  ChildRun check_json = run_child({tool, "capsule", "check", "--json", file.string()});
  write_capsule_file(file, tensor_bytes, tensor_bytes);
  ChildRun check_one = run_child({tool, "capsule", "check", file.string()});
  std::filesystem::remove(file);
  // What the 64 MiB run holds beyond the one-tensor run: the reader's fixed
  // 64 KiB chunk of the file plus its window (bound: 4 largest tensors).
  long growth_kib = check.peak_kib - check_one.peak_kib;

  // 1 GiB of float32 on the first USM device, round trip and every element
  // verified (exchange(1)).
  std::uintmax_t exchange_bytes = std::uintmax_t{1} << 30;
  ChildRun exchange = run_exchange(tool, device, exchange_bytes);
  ChildRun small_exchange = run_exchange(tool, device, 4096);
  nlohmann::json rows = {row("capsule check, 64 MiB of JSON lines", capsule_bytes, check),
                         row("capsule check --json, the same file", capsule_bytes, check_json),
                         exchange_row(exchange_bytes, exchange, small_exchange)};
  if (device.empty()) {
    for (nlohmann::json& floor : floor_rows(tool, exchange_bytes)) rows.push_back(floor);
  }
  nlohmann::json out = {
      {"tool", tool},
      {"device", device.empty() ? "the first device with USM" : device},
      {"capsule_check_window",
       {{"largest_tensor_bytes", tensor_bytes},
        {"one_tensor_peak_rss_mib", static_cast<double>(check_one.peak_kib) / 1024},
        {"read_chunk_kib", 64},
        {"growth_over_one_tensor_kib", growth_kib}}},
      {"rows", rows}};
  fmt::print("{}\n", out.dump(2));
  return 0;
}
