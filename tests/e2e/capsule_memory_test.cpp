// capsule check and capsule dump keep a bounded window of a capsule file,
// not the file: through the binary, the peak resident set of a run on a
// 32 MiB file (JSON lines, and the same tensors as one JSON array) stays
// within a few MiB of a run on a file of one such tensor, and naming the
// file twice adds nothing. Findings are written as each tensor is checked,
// so a file where every small tensor has one keeps no more than a file
// without any. Memory, not time: no figure here depends on the machine's
// speed.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "capsule/tensor_line_reader.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kFileBytes = std::uintmax_t{32} << 20;
// What a run on a large file may hold beyond a one-tensor run: four times
// the largest tensor's text (6 KiB here) and allocator slack. The file's
// text is sixteen times as much.
long allowed_growth_kib() {
  return 2 * 1024;
}

// One tensor of about 6 KiB of text: 1000 dimensions of extent 1.
std::string tensor_text() {
  std::string dims;
  for (int i = 0; i < 1000; ++i) dims += i ? ", 1" : "1";
  return fmt::format(
      R"({{"version": {{"major": 1, "minor": 3}}, "flags": 0, "dl_tensor": {{"data": "0x1000", )"
      R"("device": {{"device_type": "kDLCPU", "device_id": 0}}, "ndim": 1000, )"
      R"("dtype": "float32", "shape": [{}], "strides": [{}]}}}})",
      dims, dims);
}

// A small tensor with one finding: NULL data with 6 elements (DLP-DATA-NULL).
std::string null_data_tensor_text() {
  return R"({"version": {"major": 1, "minor": 3}, "flags": 0, "dl_tensor": {"data": null, )"
         R"("device": {"device_type": "kDLCPU", "device_id": 0}, "ndim": 2, )"
         R"("dtype": "float32", "shape": [2, 3], "strides": [3, 1]}})";
}

class CapsuleMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("dlpack-usm-memory-{}", getpid());
    fs::create_directories(dir_);
    std::string tensor = tensor_text();
    std::ofstream(dir_ / "one.jsonl") << tensor << "\n";
    std::ofstream lines(dir_ / "large.jsonl");
    std::ofstream array(dir_ / "large.json");
    array << "[\n";
    for (std::uintmax_t written = 0; written + tensor.size() + 2 <= kFileBytes;
         written += tensor.size() + 2) {
      lines << tensor << "\n";
      array << (written ? ",\n" : "") << tensor;
    }
    array << "\n]\n";
    std::string finding = null_data_tensor_text();
    std::ofstream(dir_ / "one-finding.jsonl") << finding << "\n";
    std::ofstream findings(dir_ / "findings.jsonl");
    for (std::uintmax_t written = 0; written + finding.size() + 1 <= kFileBytes;
         written += finding.size() + 1) {
      findings << finding << "\n";
    }
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  // Peak resident set (KiB) of the tool run with `arguments`, its output
  // discarded; the run must succeed or find (exit 0 or 1), not fail.
  long peak_kib(const std::vector<std::string>& arguments) const {
    pid_t pid = fork();
    if (pid == 0) {
      if (std::freopen("/dev/null", "w", stdout) == nullptr) _exit(126);
      std::vector<std::string> all{DLPACK_USM_BINARY};
      all.insert(all.end(), arguments.begin(), arguments.end());
      std::vector<char*> argv;
      for (std::string& argument : all) argv.push_back(argument.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    int status = 0;
    rusage usage{};
    EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) <= 1) << "status " << status;
    return usage.ru_maxrss;
  }

  std::string file(const char* name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(CapsuleMemory, CheckHoldsAWindowNotTheFile) {
  ASSERT_GE(fs::file_size(file("large.jsonl")), kFileBytes - (64 << 10));
  long one = peak_kib({"capsule", "check", file("one.jsonl")});
  long lines = peak_kib({"capsule", "check", file("large.jsonl")});
  long array = peak_kib({"capsule", "check", file("large.json")});
  EXPECT_LT(lines - one, allowed_growth_kib())
      << "JSON lines: " << lines << " KiB, one tensor: " << one << " KiB";
  EXPECT_LT(array - one, allowed_growth_kib())
      << "JSON array: " << array << " KiB, one tensor: " << one << " KiB";
}

TEST_F(CapsuleMemory, CheckWritesFindingsAsItGoes) {
  // About 170000 tensors, each with one finding.
  long one = peak_kib({"capsule", "check", file("one-finding.jsonl")});
  long text = peak_kib({"capsule", "check", file("findings.jsonl")});
  long json = peak_kib({"capsule", "check", "--json", file("findings.jsonl")});
  EXPECT_LT(text - one, allowed_growth_kib()) << text << " KiB, one tensor: " << one << " KiB";
  EXPECT_LT(json - one, allowed_growth_kib()) << json << " KiB, one tensor: " << one << " KiB";
}

TEST_F(CapsuleMemory, FilesCheckedTogetherDoNotAddUp) {
  long one = peak_kib({"capsule", "check", file("one.jsonl")});
  long twice =
      peak_kib({"capsule", "check", file("large.jsonl"), file("large.json"), file("large.jsonl")});
  EXPECT_LT(twice - one, 2 * allowed_growth_kib())
      << twice << " KiB, one tensor: " << one << " KiB";
}

TEST_F(CapsuleMemory, DumpHoldsAWindowNotTheFile) {
  long one = peak_kib({"capsule", "dump", file("one.jsonl")});
  long lines = peak_kib({"capsule", "dump", file("large.jsonl")});
  long json = peak_kib({"capsule", "dump", "--json", file("large.json")});
  EXPECT_LT(lines - one, allowed_growth_kib()) << lines << " KiB, one tensor: " << one << " KiB";
  EXPECT_LT(json - one, allowed_growth_kib()) << json << " KiB, one tensor: " << one << " KiB";
}

}  // namespace
}  // namespace dlpack_usm::e2e
