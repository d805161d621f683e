// capsule check at parsing speed: a JSON-lines capture of 1,000,000 tensors
// (generated: a training step's parameters, CUDA tensors of eight dtypes
// with their driver's facts, one in 97 with NULL data, a finding) checked
// as text and as --json, in paired runs against Python's json.loads over
// the same lines. Rows print the tool's wall time (median, min) next to
// json.loads's, the ratio and its bound (0.1x), and the tool's time against
// the 2 s bound, with its peak resident set.
// Usage: capsule_check_bench [--tensors N] [--rounds N] [--tool PATH] [--python PATH]
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "child_run.hpp"

namespace dlpack_usm::bench {
namespace {

struct Options {
  long tensors = 1000000;
  int rounds = 3;
  std::string tool;
  std::string python;
};

Options parse(int argc, char** argv) {
  std::string python = std::filesystem::exists(tools_python()) ? tools_python() : "python3";
  return {std::stol(option(argc, argv, "--tensors", "1000000")),
          std::stoi(option(argc, argv, "--rounds", "3")),
          option(argc, argv, "--tool", DLPACK_USM_TOOL), option(argc, argv, "--python", python)};
}

struct Dtype {
  const char* code;
  int bits;
};
constexpr Dtype kDtypes[] = {{"kDLFloat", 32}, {"kDLFloat", 16}, {"kDLBfloat", 16},
                             {"kDLInt", 64},   {"kDLInt", 32},   {"kDLUInt", 8},
                             {"kDLBool", 8},   {"kDLFloat", 64}};

// Tensor i of the capture, one line.
std::string tensor_line(long i) {
  const Dtype& dtype = kDtypes[i % 8];
  int ndim = 1 + static_cast<int>(i % 4);
  std::vector<long> shape(static_cast<std::size_t>(ndim));
  for (int k = 0; k < ndim; ++k) shape[static_cast<std::size_t>(k)] = 1 + (i * 7 + k * 13) % 1024;
  std::vector<long> strides(shape.size());
  long elements = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = elements;
    elements *= shape[k];
  }
  unsigned long base = 0x7f0000000000UL + static_cast<unsigned long>(i) * 4096 * 64;
  std::string data = i % 97 == 5 ? "null" : fmt::format("\"{:#x}\"", base);
  return fmt::format(
      R"({{"version": {{"major": 1, "minor": 3}}, "flags": 0, "deleter": true, "manager_ctx": true, )"
      R"("dl_tensor": {{"data": {}, "device": {{"device_type": "kDLCUDA", "device_id": {}}}, )"
      R"("ndim": {}, "dtype": {{"code": "{}", "bits": {}, "lanes": 1}}, "shape": [{}], )"
      R"("strides": [{}], "byte_offset": 0}}, "runtime": {{"alloc_base": "{:#x}", )"
      R"("alloc_size": {}, "cuda_memory_type": "device", "cuda_ordinal": {}, )"
      R"("cuda_device_count": 2}}, "origin": "step-{}/param-{}"}})"
      "\n",
      data, i % 2, ndim, dtype.code, dtype.bits, fmt::join(shape, ", "), fmt::join(strides, ", "),
      base, elements * dtype.bits / 8 + 512, i % 2, i / 1000, i);
}

std::uintmax_t write_capture(const std::filesystem::path& path, long tensors) {
  std::ofstream out(path, std::ios::binary);
  for (long i = 0; i < tensors; ++i) out << tensor_line(i);
  out.close();
  return std::filesystem::file_size(path);
}

void print_row(const char* what, const Paired& paired, long tensors) {
  double ratio = paired.median_ratio();
  double seconds = paired.median_a_ms() / 1000;
  double bound_s = 2.0 * static_cast<double>(tensors) / 1e6;
  long peak = 0;
  for (const ChildRun& run : paired.a) peak = std::max(peak, run.peak_kib);
  fmt::print(
      "{:<28} {:>7.2f} {:>7.2f}   {:>7.2f} {:>7.2f}   {:>5.3f}  {:>5.2f}  {:<6}  {:>5.2f} s {:<6} "
      "{:>6.1f} MiB  exit {}\n",
      what, seconds, paired.min_a_ms() / 1000, paired.median_b_ms() / 1000,
      paired.min_b_ms() / 1000, ratio, 0.1, verdict(ratio, 0.1), bound_s, verdict(seconds, bound_s),
      static_cast<double>(peak) / 1024, paired.a.front().exit_code);
  // Exit 1 means findings, which the capture has; anything else (2: a file
  // over a limit, as a tool before 64 MiB per line refuses this one) means
  // the time is not that of a check and the verdicts above mean nothing.
  if (paired.a.front().exit_code > 1) {
    fmt::print("  the tool did not check the capture (exit {}): its times are no figure\n",
               paired.a.front().exit_code);
  }
}

}  // namespace
}  // namespace dlpack_usm::bench

int main(int argc, char** argv) {
  using namespace dlpack_usm::bench;
  Options options = parse(argc, argv);
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / fmt::format("dlpack-usm-capture-{}.jsonl", getpid());
  std::uintmax_t bytes = write_capture(file, options.tensors);
  std::vector<std::string> loads = {
      options.python, "-c",
      "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n",
      file.string()};
  fmt::print(
      "capsule check of {} tensors ({:.1f} MiB of JSON lines), {} paired rounds after 1 "
      "warm-up round; load average {:.2f}\n",
      options.tensors, static_cast<double>(bytes) / (1 << 20), options.rounds, load_average());
  fmt::print("{:<28} {:>7} {:>7}   {:>7} {:>7}   {:>5}  {:>5}  {:<6}  {:>7} {:<6} {:>10}\n",
             "tool (s)", "median", "min", "json.loads", "min", "ratio", "bound", "", "bound", "",
             "peak RSS");
  Paired text =
      run_paired({options.tool, "capsule", "check", file.string()}, loads, options.rounds, 1);
  print_row("capsule check", text, options.tensors);
  Paired json = run_paired({options.tool, "capsule", "check", "--json", file.string()}, loads,
                           options.rounds, 1);
  print_row("capsule check --json", json, options.tensors);
  std::filesystem::remove(file);
  return 0;
}
