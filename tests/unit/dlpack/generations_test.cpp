// The header-generation table of src/dlpack/: every device type and dtype
// code names the first dlpack.h that defines it, and the two headers this
// machine has agree with it: Debian's 0.6 (what generation 0.6 knows, no
// more) and the 1.3 header apache-tvm-ffi ships (what generations up to 1.3
// know, no more; main's additions are not in it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "dlpack/generations.hpp"
#include "dlpack/names.hpp"

namespace dlpack_usm::dl {
namespace {

// Every "kDLName = value" of a header.
std::map<std::string, int> enumerators(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string source = text.str();
  std::map<std::string, int> found;
  const std::regex enumerator(R"((kDL\w+)\s*=\s*(\d+)U?\s*,)");
  for (std::sregex_iterator it(source.begin(), source.end(), enumerator), end; it != end; ++it) {
    found[(*it)[1]] = std::stoi((*it)[2]);
  }
  return found;
}

// The enumerators the model says generation `newest` and older know.
std::map<std::string, int> known_up_to(Generation newest) {
  std::map<std::string, int> known;
  for (const DeviceTypeName& type : device_type_table()) {
    if (type.known_since <= newest) known[std::string(type.name)] = type.value;
  }
  for (const DtypeCodeName& code : dtype_code_table()) {
    if (code.known_since <= newest) known[std::string(code.name)] = code.code;
  }
  return known;
}

bool peers_required() {
  const char* peers = std::getenv("DLPACK_USM_REQUIRE_PEERS");
  const char* usm = std::getenv("DLPACK_USM_REQUIRE_USM");
  return (peers != nullptr && std::string(peers) == "1") ||
         (usm != nullptr && std::string(usm) == "1");
}

TEST(Generations, TableRunsOldestFirstAndOnlyMainIsUnreleased) {
  auto table = generation_table();
  ASSERT_EQ(table.size(), 8u);
  EXPECT_EQ(table.front().name, "0.6");
  EXPECT_EQ(table.back().name, "main after 1.3");
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(table[i].generation), i);
    EXPECT_EQ(table[i].released, table[i].generation != Generation::main_after_1_3);
    if (i > 0) {
      EXPECT_LE(table[i - 1].declares, table[i].declares) << table[i].name;
    }
  }
  // Main added codes without a minor bump: it declares what 1.3 declares.
  EXPECT_EQ(declared_by(Generation::main_after_1_3), (Release{1, 3}));
  EXPECT_EQ(declared_by(Generation::v1_3), (Release{1, 3}));
  EXPECT_EQ(declared_by(Generation::v0_6), (Release{0, 6}));
}

TEST(Generations, MainAfter13KnowsItsFourCodes) {
  for (std::int32_t type : {kDLTPU, kDLTPUHost, kDLAscend}) {
    const DeviceTypeName* known = find_device_type(type);
    ASSERT_NE(known, nullptr) << type;
    EXPECT_EQ(known->known_since, Generation::main_after_1_3) << type;
  }
  EXPECT_EQ(find_device_type(19)->name, "kDLTPU");
  EXPECT_EQ(find_device_type(20)->name, "kDLTPUHost");
  EXPECT_EQ(find_device_type(21)->name, "kDLAscend");
  EXPECT_TRUE(find_device_type(kDLTPUHost)->host_memory);
  EXPECT_EQ(find_device_type(22), nullptr);
  const DtypeCodeName* bcomplex = find_dtype_code(std::uint8_t{18});
  ASSERT_NE(bcomplex, nullptr);
  EXPECT_EQ(bcomplex->name, "kDLBcomplex");
  EXPECT_EQ(bcomplex->known_since, Generation::main_after_1_3);
  EXPECT_EQ(find_dtype_code(std::uint8_t{19}), nullptr);
}

TEST(Generations, NamesAndDtypesOfMainsCodes) {
  EXPECT_EQ(device_type_display(kDLAscend), "kDLAscend");
  EXPECT_EQ(find_device_type("tpu_host"), find_device_type(kDLTPUHost));
  EXPECT_EQ(dtype_display({kDLBcomplex, 32, 1}), "bcomplex32");
  std::optional<DLDataType> parsed = parse_dtype("bcomplex32");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->code, kDLBcomplex);
  EXPECT_EQ(parsed->bits, 32);
  ASSERT_EQ(valid_bits(kDLBcomplex).size(), 1u);
  EXPECT_EQ(valid_bits(kDLBcomplex).front(), 32u);
}

TEST(Generations, HandleTypedDataIsOpenClVulkanMetalAndWebGpu) {
  for (std::int32_t type = 0; type < 32; ++type) {
    bool handle = type == kDLOpenCL || type == kDLVulkan || type == kDLMetal || type == kDLWebGPU;
    EXPECT_EQ(data_is_handle(type), handle) << type;
  }
}

TEST(Generations, Debian06HeaderDefinesExactlyGeneration06) {
  const std::string header = "/usr/include/dlpack/dlpack.h";
  if (!std::filesystem::exists(header)) GTEST_SKIP() << "no " << header << " (libdlpack-dev)";
  std::map<std::string, int> in_header = enumerators(header);
  // Debian's libdlpack-dev is 0.6; another system header says nothing here.
  if (in_header.count("kDLOneAPI") != 0) GTEST_SKIP() << header << " is not dlpack 0.6";
  EXPECT_EQ(in_header, known_up_to(Generation::v0_6));
}

TEST(Generations, Header13DefinesExactlyTheReleasedGenerations) {
  const std::string header = DLPACK_USM_DLPACK_13_HEADER;
  if (header.empty() || !std::filesystem::exists(header)) {
    if (peers_required()) FAIL() << "apache-tvm-ffi's dlpack.h is missing";
    GTEST_SKIP() << "apache-tvm-ffi is not installed (scripts/setup.sh installs it)";
  }
  EXPECT_EQ(enumerators(header), known_up_to(Generation::v1_3));
}

}  // namespace
}  // namespace dlpack_usm::dl
