// The in-memory facts reader on real DLManagedTensor and
// DLManagedTensorVersioned structs. Where a test proves the reader does NOT
// read something, that something lies in a PROT_NONE page: a read would kill
// the test process, so a pass means nothing was read.
#include <cstddef>
#include <cstring>
#include <new>
#include <tuple>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "facts/memory_reader.hpp"
#include "facts/reader_notes.hpp"
#include "facts_test_support.hpp"

namespace dlpack_usm::facts {
namespace {

using testing::GuardedPage;

void no_op_deleter(dlpack::DLManagedTensor*) {}
void no_op_versioned_deleter(dlpack::DLManagedTensorVersioned*) {}

dlpack::DLTensor tensor_2x3(std::int64_t* shape, std::int64_t* strides) {
  dlpack::DLTensor tensor{};
  tensor.data = reinterpret_cast<void*>(std::uintptr_t{0x7f0000001000});
  tensor.device = {dlpack::kDLOneAPI, 1};
  tensor.ndim = 2;
  tensor.dtype = {dlpack::kDLFloat, 32, 1};
  tensor.shape = shape;
  tensor.strides = strides;
  tensor.byte_offset = 64;
  return tensor;
}

TEST(MemoryReader, ReadsEveryFieldOfALegacyTensor) {
  std::int64_t shape[] = {2, 3};
  std::int64_t strides[] = {3, 1};
  int context = 0;
  dlpack::DLManagedTensor managed{tensor_2x3(shape, strides), &context, no_op_deleter};

  TensorFacts facts = read_managed_tensor(&managed, "memory#0");
  EXPECT_EQ(facts.abi, Abi::legacy);
  EXPECT_EQ(facts.version.major, 0U);
  EXPECT_EQ(facts.flags, 0U);
  EXPECT_TRUE(facts.body_read);
  EXPECT_TRUE(facts.has_deleter);
  EXPECT_TRUE(facts.has_manager_ctx);
  EXPECT_EQ(facts.data, 0x7f0000001000U);
  EXPECT_EQ(facts.device_type, dlpack::kDLOneAPI);
  EXPECT_EQ(facts.device_id, 1);
  EXPECT_EQ(facts.ndim, 2);
  EXPECT_EQ(facts.dtype.code, dlpack::kDLFloat);
  EXPECT_EQ(facts.dtype.bits, 32);
  EXPECT_EQ(facts.dtype.lanes, 1);
  EXPECT_EQ(facts.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(facts.strides, (std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(facts.byte_offset, 64U);
  EXPECT_EQ(facts.origin, "memory#0");
  EXPECT_TRUE(facts.reader_notes.empty());
  EXPECT_FALSE(facts.runtime.has_value());
}

TEST(MemoryReader, ReadsEveryFieldOfAVersionedTensor) {
  std::int64_t shape[] = {2, 3};
  std::int64_t strides[] = {1, 2};
  dlpack::DLManagedTensorVersioned managed{};
  managed.version = {1, 2};
  managed.manager_ctx = nullptr;
  managed.deleter = no_op_versioned_deleter;
  managed.flags = dlpack::kFlagReadOnly | (1ULL << 40);
  managed.dl_tensor = tensor_2x3(shape, strides);

  TensorFacts facts = read_managed_tensor_versioned(&managed, "memory#1");
  EXPECT_EQ(facts.abi, Abi::versioned);
  EXPECT_EQ(facts.version.major, 1U);
  EXPECT_EQ(facts.version.minor, 2U);
  EXPECT_EQ(facts.flags, dlpack::kFlagReadOnly | (1ULL << 40));
  EXPECT_TRUE(facts.body_read);
  EXPECT_TRUE(facts.has_deleter);
  EXPECT_FALSE(facts.has_manager_ctx);
  EXPECT_EQ(facts.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(facts.strides, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(facts.byte_offset, 64U);
}

TEST(MemoryReader, NullDeleterAndNullData) {
  dlpack::DLManagedTensor managed{};
  managed.dl_tensor.device = {dlpack::kDLCPU, 0};
  managed.dl_tensor.dtype = {dlpack::kDLInt, 8, 1};
  TensorFacts facts = read_managed_tensor(&managed, "m");
  EXPECT_FALSE(facts.has_deleter);
  EXPECT_FALSE(facts.has_manager_ctx);
  EXPECT_EQ(facts.data, 0U);
}

TEST(MemoryReader, NullShapeAndStridesStayNull) {
  dlpack::DLManagedTensor managed{tensor_2x3(nullptr, nullptr), nullptr, nullptr};
  TensorFacts facts = read_managed_tensor(&managed, "m");
  EXPECT_EQ(facts.ndim, 2);
  EXPECT_FALSE(facts.shape.has_value());
  EXPECT_FALSE(facts.strides.has_value());
}

TEST(MemoryReader, NdimZeroTellsNullFromEmpty) {
  std::int64_t unused = 7;
  dlpack::DLManagedTensor managed{tensor_2x3(nullptr, &unused), nullptr, nullptr};
  managed.dl_tensor.ndim = 0;
  TensorFacts facts = read_managed_tensor(&managed, "m");
  EXPECT_FALSE(facts.shape.has_value());
  ASSERT_TRUE(facts.strides.has_value());
  EXPECT_TRUE(facts.strides->empty());
}

TEST(MemoryReader, ReadsExactlyNdimEntriesAndNotOneMore) {
  // shape and strides end exactly at the guard page.
  GuardedPage shape_page;
  GuardedPage strides_page;
  auto* shape = static_cast<std::int64_t*>(shape_page.last_bytes(3 * sizeof(std::int64_t)));
  auto* strides = static_cast<std::int64_t*>(strides_page.last_bytes(3 * sizeof(std::int64_t)));
  for (int i = 0; i < 3; ++i) {
    shape[i] = i + 2;
    strides[i] = 10 - i;
  }
  dlpack::DLManagedTensor managed{tensor_2x3(shape, strides), nullptr, nullptr};
  managed.dl_tensor.ndim = 3;
  TensorFacts facts = read_managed_tensor(&managed, "m");
  EXPECT_EQ(facts.shape, (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(facts.strides, (std::vector<std::int64_t>{10, 9, 8}));
}

TEST(MemoryReader, ReadsUpToTheLimitOfDimensions) {
  std::vector<std::int64_t> shape(kMaxReadableDims, 1);
  std::vector<std::int64_t> strides(kMaxReadableDims, 1);
  dlpack::DLManagedTensor managed{tensor_2x3(shape.data(), strides.data()), nullptr, nullptr};
  managed.dl_tensor.ndim = static_cast<std::int32_t>(kMaxReadableDims);
  TensorFacts facts = read_managed_tensor(&managed, "m");
  ASSERT_TRUE(facts.shape.has_value());
  EXPECT_EQ(facts.shape->size(), static_cast<std::size_t>(kMaxReadableDims));
  EXPECT_TRUE(facts.reader_notes.empty());
}

TEST(MemoryReader, NegativeNdimReadsNoArray) {
  GuardedPage page;
  auto* unreadable = static_cast<std::int64_t*>(page.guard());
  dlpack::DLManagedTensor managed{tensor_2x3(unreadable, unreadable), nullptr, nullptr};
  managed.dl_tensor.ndim = -3;
  TensorFacts facts = read_managed_tensor(&managed, "m");
  EXPECT_EQ(facts.ndim, -3);
  EXPECT_FALSE(facts.shape.has_value());
  EXPECT_FALSE(facts.strides.has_value());
  EXPECT_EQ(facts.reader_notes, std::vector<std::string>{note_ndim_negative(-3)});
}

TEST(MemoryReader, HugeNdimIsCappedAndNoArrayIsRead) {
  GuardedPage page;
  auto* unreadable = static_cast<std::int64_t*>(page.guard());
  dlpack::DLManagedTensorVersioned managed{};
  managed.version = {1, 3};
  managed.dl_tensor = tensor_2x3(unreadable, unreadable);
  for (std::int32_t ndim : {static_cast<std::int32_t>(kMaxReadableDims + 1), INT32_MAX}) {
    managed.dl_tensor.ndim = ndim;
    TensorFacts facts = read_managed_tensor_versioned(&managed, "m");
    EXPECT_EQ(facts.ndim, ndim);
    EXPECT_FALSE(facts.shape.has_value());
    EXPECT_FALSE(facts.strides.has_value());
    ASSERT_EQ(facts.reader_notes.size(), 1U);
    EXPECT_NE(facts.reader_notes[0].find("exceeds the reader's limit of 1024"), std::string::npos)
        << facts.reader_notes[0];
  }
}

TEST(MemoryReader, UnknownMajorVersionReadsNothingPastFlags) {
  // Only the stable header (version, manager_ctx, deleter, flags: 32 bytes)
  // is mapped; dl_tensor would lie in the PROT_NONE page.
  constexpr std::size_t kHeader =
      offsetof(dlpack::DLManagedTensorVersioned, flags) + sizeof(std::uint64_t);
  static_assert(kHeader == 32);
  GuardedPage page;
  void* at = page.last_bytes(kHeader);
  dlpack::DLPackVersion version{2, 0};
  void* context = &page;
  void (*deleter)(dlpack::DLManagedTensorVersioned*) = no_op_versioned_deleter;
  std::uint64_t flags = dlpack::kFlagIsCopied;
  auto* bytes = static_cast<char*>(at);
  std::memcpy(bytes + offsetof(dlpack::DLManagedTensorVersioned, version), &version,
              sizeof version);
  std::memcpy(bytes + offsetof(dlpack::DLManagedTensorVersioned, manager_ctx), &context,
              sizeof context);
  std::memcpy(bytes + offsetof(dlpack::DLManagedTensorVersioned, deleter), &deleter,
              sizeof deleter);
  std::memcpy(bytes + offsetof(dlpack::DLManagedTensorVersioned, flags), &flags, sizeof flags);

  TensorFacts facts =
      read_managed_tensor_versioned(static_cast<const dlpack::DLManagedTensorVersioned*>(at), "m");
  EXPECT_FALSE(facts.body_read);
  EXPECT_EQ(facts.version.major, 2U);
  EXPECT_EQ(facts.version.minor, 0U);
  EXPECT_EQ(facts.flags, dlpack::kFlagIsCopied);
  EXPECT_TRUE(facts.has_deleter);
  EXPECT_TRUE(facts.has_manager_ctx);
  EXPECT_EQ(facts.ndim, TensorFacts{}.ndim);
  EXPECT_FALSE(facts.shape.has_value());
  EXPECT_EQ(facts.reader_notes, std::vector<std::string>{note_unknown_major(2)});
}

TEST(MemoryReader, MajorZeroIsUnknownToo) {
  dlpack::DLManagedTensorVersioned managed{};
  managed.version = {0, 9};
  TensorFacts facts = read_managed_tensor_versioned(&managed, "m");
  EXPECT_FALSE(facts.body_read);
}

// Page-guarded reads: what lies in the PROT_NONE page is reported, with the
// pointer that led there, and the test process lives on.
TEST(MemoryReader, UnreadableShapeOrStridesIsAFindingNotACrash) {
  GuardedPage page;
  auto* unreadable = static_cast<std::int64_t*>(page.guard());
  // Two readable entries where ndim declares three: the third is in the guard.
  auto* short_array = static_cast<std::int64_t*>(page.last_bytes(2 * sizeof(std::int64_t)));
  std::int64_t readable[] = {1, 1, 1};
  for (auto [shape, strides, field] : {std::tuple{unreadable, readable, "dl_tensor.shape"},
                                       std::tuple{readable, short_array, "dl_tensor.strides"}}) {
    dlpack::DLManagedTensorVersioned managed{};
    managed.version = {1, 3};
    managed.dl_tensor = tensor_2x3(shape, strides);
    managed.dl_tensor.ndim = 3;
    try {
      read_managed_tensor_versioned(&managed, "m");
      FAIL() << "no error for " << field;
    } catch (const UnreadableMemory& error) {
      EXPECT_EQ(error.code(), ExitCode::findings);
      EXPECT_EQ(error.field(), field);
      EXPECT_NE(std::string(error.what()).find("is not readable memory"), std::string::npos)
          << error.what();
    }
  }
}

TEST(MemoryReader, UnreadableStructIsAFindingNotACrash) {
  GuardedPage page;
  const auto* wild = static_cast<const dlpack::DLManagedTensor*>(page.guard());
  try {
    read_managed_tensor(wild, "m");
    FAIL() << "no error";
  } catch (const UnreadableMemory& error) {
    EXPECT_EQ(error.field(), "tensor");
  }
  // The versioned body past a readable 32-byte header is read only for a
  // known major version, and then it must be readable too.
  constexpr std::size_t kHeader = offsetof(dlpack::DLManagedTensorVersioned, dl_tensor);
  auto* header = static_cast<char*>(page.last_bytes(kHeader));
  dlpack::DLPackVersion version{1, 3};
  std::memcpy(header, &version, sizeof version);
  EXPECT_THROW(read_managed_tensor_versioned(
                   reinterpret_cast<const dlpack::DLManagedTensorVersioned*>(header), "m"),
               UnreadableMemory);
}

TEST(MemoryReader, NullTensorIsAUsageError) {
  try {
    read_managed_tensor(nullptr, "m");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
  }
  EXPECT_THROW(read_managed_tensor_versioned(nullptr, "m"), Error);
}

}  // namespace
}  // namespace dlpack_usm::facts
