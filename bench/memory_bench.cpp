// Peak memory (resident set) of the real binary on large inputs, next to the
// size of the input: `capsule check` on a 64 MiB capsule file (JSON lines
// of tensors with long shapes) and a 1 GiB `exchange` round trip. Prints
// JSON. Not a test: the ratios are figures to watch, side by side.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace {

struct ChildUsage {
  int exit_code = -1;
  long peak_kib = 0;
};

// Runs the tool with its output discarded; ru_maxrss of that child alone.
ChildUsage run_measured(const std::vector<std::string>& arguments) {
  pid_t pid = fork();
  if (pid == 0) {
    std::FILE* null = std::freopen("/dev/null", "w", stdout);
    (void)null;
    std::vector<char*> argv;
    for (const std::string& argument : arguments)
      argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), usage.ru_maxrss};
}

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

nlohmann::json row(const char* what, std::uintmax_t input_bytes, const ChildUsage& usage) {
  double peak_bytes = static_cast<double>(usage.peak_kib) * 1024.0;
  return {{"what", what},
          {"exit_code", usage.exit_code},
          {"input_mib", static_cast<double>(input_bytes) / (1 << 20)},
          {"peak_rss_mib", peak_bytes / (1 << 20)},
          {"peak_over_input", peak_bytes / static_cast<double>(input_bytes)}};
}

}  // namespace

int main(int argc, char** argv) {
  // memory_bench [TOOL [DEVICE]]: DEVICE is a list-devices name with USM.
  std::string tool = argc > 1 ? argv[1] : DLPACK_USM_TOOL;
  std::string device = argc > 2 ? argv[2] : "opencl:cpu:0";
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / fmt::format("dlpack-usm-memory-{}.jsonl", getpid());
  // The largest file `capsule check` reads: 64 MiB; and one tensor of it,
  // the baseline the window is measured against.
  std::uintmax_t tensor_bytes = 0;
  std::uintmax_t capsule_bytes = write_capsule_file(file, std::uintmax_t{64} << 20, tensor_bytes);
  ChildUsage check = run_measured({tool, "capsule", "check", file.string()});
  ChildUsage check_json = run_measured({tool, "capsule", "check", "--json", file.string()});
  write_capsule_file(file, tensor_bytes, tensor_bytes);
  ChildUsage check_one = run_measured({tool, "capsule", "check", file.string()});
  std::filesystem::remove(file);
  // What the 64 MiB run holds beyond the one-tensor run: the reader's fixed
  // 64 KiB chunk of the file plus its window (bound: 4 largest tensors).
  long growth_kib = check.peak_kib - check_one.peak_kib;

  // 1 GiB of float32 on the first USM device, round trip and every element
  // verified (exchange(1)).
  std::uintmax_t exchange_bytes = std::uintmax_t{1} << 30;
  ChildUsage exchange =
      run_measured({tool, "exchange", "--device", device, "--usm", "device", "--dtype", "float32",
                    "--shape", std::to_string(exchange_bytes / 4), "--order", "C"});
  nlohmann::json out = {
      {"tool", tool},
      {"device", device},
      {"capsule_check_window",
       {{"largest_tensor_bytes", tensor_bytes},
        {"one_tensor_peak_rss_mib", static_cast<double>(check_one.peak_kib) / 1024},
        {"read_chunk_kib", 64},
        {"growth_over_one_tensor_kib", growth_kib}}},
      {"rows",
       {row("capsule check, 64 MiB of JSON lines", capsule_bytes, check),
        row("capsule check --json, the same file", capsule_bytes, check_json),
        row("exchange, 1 GiB device USM round trip", exchange_bytes, exchange)}}};
  fmt::print("{}\n", out.dump(2));
  return 0;
}
