// Hostile capsule files through the binary: every one exits 2 with
// "dlpack-usm: error:" on stderr naming the file and the place, nothing on
// stdout for dump, and no crash (a signal would give an exit code >= 128).
// The large files are made at test time rather than committed.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "capsule/capsule_file.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

// A scratch directory for generated files, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "dlpack-usm-hostile-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  fs::path file(const std::string& name, const std::string& content) const {
    fs::path path = path_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Expected {
  std::string file;
  std::string place;             // what the message must say: the place and the problem
  std::size_t good_tensors = 0;  // tensors before the problem, which dump prints
};

void expect_refused(const std::string& path, const std::string& place,
                    std::size_t good_tensors = 0) {
  for (const char* command : {"dump", "check"}) {
    SCOPED_TRACE(std::string(command) + " " + path);
    ToolResult result = run_tool({"capsule", command, path});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(result.err.rfind("dlpack-usm: error: " + path, 0), 0U) << result.err;
    EXPECT_NE(result.err.find(place), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("dlpack-usm: hint: "), std::string::npos) << result.err;
    // Both stream: the tensors before the bad one are printed, and only
    // they (bad-third-line.jsonl has two good ones). check then says where
    // the file stopped, and sums up.
    EXPECT_EQ(result.out.find(fmt::format("{}#{}", path, good_tensors)), std::string::npos)
        << result.out;
    if (good_tensors > 0) {
      EXPECT_NE(result.out.find(fmt::format("{}#{}", path, good_tensors - 1)), std::string::npos)
          << result.out;
    }
    if (std::string(command) == "dump") {
      if (good_tensors == 0) {
        EXPECT_TRUE(result.out.empty()) << result.out;
      }
    } else {
      std::string stopped = good_tensors == 0
                                ? std::string("  not checked: ")
                                : fmt::format("  stopped after {} tensor", good_tensors);
      EXPECT_NE(result.out.find(path + stopped), std::string::npos) << result.out;
      EXPECT_NE(result.out.find(fmt::format("checked {} tensor", good_tensors)), std::string::npos)
          << result.out;
    }
  }
}

TEST(CapsuleHostileFiles, CommittedFilesAreRefusedWithTheirPlace) {
  for (const Expected& expected : std::vector<Expected>{
           {"empty.json", "the file is empty"},
           {"invalid-utf8.json", "invalid-utf8.json:1:"},
           {"deep-nesting.json", "nests deeper than 64 levels"},
           {"wrong-type.json", "at /dl_tensor/ndim: expected an integer"},
           {"missing-field.json", "at /dl_tensor/device/device_id"},
           {"beyond-64-bits.json",
            "at /dl_tensor/data: the integer 18446744073709551616 does not fit"},
           {"device-id-beyond-int32.json", "at /dl_tensor/device/device_id"},
           {"typo-key.json", "did you mean \"strides\""},
           {"flags-on-legacy.json", "at /flags"},
           {"shape-longer-than-ndim.json", "at /dl_tensor/shape"},
           {"bad-third-line.jsonl", "bad-third-line.jsonl:3: tensor #2 at /dl_tensor/data", 2},
           {"syntax-error.json", "syntax-error.json:2:"},
       }) {
    expect_refused(source_path("tests/data/hostile/" + expected.file), expected.place,
                   expected.good_tensors);
  }
}

TEST(CapsuleHostileFiles, InvalidUtf8IsNeverEchoedRaw) {
  ToolResult result =
      run_tool({"capsule", "check", source_path("tests/data/hostile/invalid-utf8.json")});
  EXPECT_EQ(result.err.find('\xC3'), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("\\xC3"), std::string::npos) << result.err;
}

TEST(CapsuleHostileFiles, AMillionDimensions) {
  ScratchDir scratch;
  std::string shape = "[1";
  for (int i = 1; i < 1000000; ++i) shape += ",1";
  shape += "]";
  fs::path path = scratch.file("million.json",
                               R"({"version": {"major": 1, "minor": 3}, "dl_tensor": {"data": null,
        "device": {"device_type": 1, "device_id": 0}, "ndim": 1000000, "dtype": "int8",
        "shape": )" + shape + R"(, "strides": null}})");
  expect_refused(path.string(), "at /dl_tensor/shape: the array has more than 1024 entries");
}

TEST(CapsuleHostileFiles, AMillionDimensionsDeclaredButNotListedIsATensor) {
  ScratchDir scratch;
  fs::path path = scratch.file("declared.json",
                               R"({"version": {"major": 1, "minor": 3}, "dl_tensor": {"data": null,
        "device": {"device_type": 1, "device_id": 0}, "ndim": 1000000, "dtype": "int8",
        "shape": null, "strides": null}})");
  ToolResult result = run_tool({"capsule", "check", path.string()});
  // The 1024 dimensions are the reader's limit, not DLPack's: a warning.
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("DLP-NDIM-LIMIT"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("warning"), std::string::npos) << result.out;
}

TEST(CapsuleHostileFiles, FilesPastTheSizeLimitAreNotRead) {
  ScratchDir scratch;
  fs::path path = scratch.path() / "huge.json";
  { std::ofstream(path) << "{"; }
  // Sparse: the size is past the limit without the disk holding it.
  fs::resize_file(path, capsule::kMaxCapsuleFileBytes + 1);
  expect_refused(path.string(), "more than a capsule file may hold");
}

TEST(CapsuleHostileFiles, EndlessStreamsStopAtTheSizeLimit) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  expect_refused("/dev/zero", "more than a capsule file may hold");
}

TEST(CapsuleHostileFiles, MissingFilesAndDirectories) {
  ScratchDir scratch;
  expect_refused((scratch.path() / "absent.json").string(), "cannot open");
  expect_refused(scratch.path().string(), "is a directory");
}

TEST(CapsuleHostileFiles, DeepNestingOfAMillionLevels) {
  ScratchDir scratch;
  fs::path path =
      scratch.file("deeper.json", std::string(1000000, '[') + std::string(1000000, ']'));
  expect_refused(path.string(), "nests deeper than 64 levels");
}

}  // namespace
}  // namespace dlpack_usm::e2e
