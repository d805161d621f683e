// parse_capsule_text(to_capsule_json(f)) gives f back, field by field, for
// hand-picked edge cases and for many tensors read by the in-memory reader
// from random real structs (fixed seed, so every run checks the same ones).
#include <random>

#include <gtest/gtest.h>

#include "capsule/capsule_file.hpp"
#include "dlpack/names.hpp"
#include "facts/memory_reader.hpp"
#include "facts/reader_notes.hpp"
#include "facts_test_support.hpp"

namespace dlpack_usm::capsule {
namespace {

using facts::TensorFacts;
using facts::testing::differences;

TensorFacts round_trip(const TensorFacts& facts) {
  std::string text = to_capsule_json(facts).dump();
  std::vector<TensorFacts> parsed = parse_capsule_text(text, "rt.json");
  EXPECT_EQ(parsed.size(), 1U);
  return parsed.at(0);
}

void expect_round_trip(const TensorFacts& facts, const std::string& label) {
  TensorFacts back = round_trip(facts);
  EXPECT_EQ(differences(facts, back), std::vector<std::string>{})
      << label << ": " << to_capsule_json(facts).dump();
  // Provenance is kept, not replaced: the file's "origin" follows the
  // tensor's place in the new file.
  std::string recorded = facts.origin.empty() ? "" : " (" + facts.origin + ")";
  EXPECT_EQ(back.origin, "rt.json#0" + recorded) << label;
  // The canonical form is a fixed point (origin aside, which grows a link).
  nlohmann::ordered_json first = to_capsule_json(back);
  nlohmann::ordered_json second = to_capsule_json(round_trip(back));
  first.erase("origin");
  second.erase("origin");
  EXPECT_EQ(second.dump(), first.dump()) << label;
}

TensorFacts full_tensor() {
  TensorFacts facts;
  facts.abi = facts::Abi::versioned;
  facts.version = {1, 3};
  facts.flags = dlpack::kFlagReadOnly | dlpack::kFlagIsCopied;
  facts.has_deleter = true;
  facts.has_manager_ctx = true;
  facts.data = 0x7f0000001000;
  facts.device_type = dlpack::kDLOneAPI;
  facts.device_id = 2;
  facts.ndim = 3;
  facts.dtype = {dlpack::kDLComplex, 64, 1};
  facts.shape = std::vector<std::int64_t>{2, 0, 5};
  facts.strides = std::vector<std::int64_t>{-5, 99, 1};
  facts.byte_offset = 128;
  facts::RuntimeFacts runtime;
  runtime.usm_kind = facts::UsmKind::shared;
  runtime.owner_root_index = 2;
  runtime.owner_sub_device_index = 1;
  runtime.owner_device_name = "opencl:gpu:2.1";
  runtime.root_device_count = 3;
  runtime.default_context = true;
  runtime.alloc_base = 0x7f0000000000;
  runtime.alloc_size = 1ULL << 40;
  facts.runtime = runtime;
  return facts;
}

TEST(CapsuleRoundTrip, EveryFieldOfAFullTensor) {
  expect_round_trip(full_tensor(), "full");
}

TEST(CapsuleRoundTrip, EdgeCases) {
  TensorFacts legacy = full_tensor();
  legacy.abi = facts::Abi::legacy;
  legacy.version = {0, 0};
  legacy.flags = 0;
  expect_round_trip(legacy, "legacy");

  TensorFacts unknown_values = full_tensor();
  unknown_values.device_type = 5;
  unknown_values.device_id = -7;
  unknown_values.dtype = {250, 0, 0};
  unknown_values.flags = ~std::uint64_t{0};
  unknown_values.data = ~std::uint64_t{0};
  unknown_values.byte_offset = ~std::uint64_t{0};
  expect_round_trip(unknown_values, "unknown enum values and extremes");

  TensorFacts null_pointers = full_tensor();
  null_pointers.data = 0;
  null_pointers.shape.reset();
  null_pointers.strides.reset();
  null_pointers.has_deleter = false;
  null_pointers.has_manager_ctx = false;
  null_pointers.runtime.reset();
  expect_round_trip(null_pointers, "NULL pointers");

  TensorFacts scalar = full_tensor();
  scalar.ndim = 0;
  scalar.shape = std::vector<std::int64_t>{};
  scalar.strides.reset();
  expect_round_trip(scalar, "ndim 0, shape non-NULL and empty");

  TensorFacts huge = full_tensor();
  huge.ndim = 1'000'000;
  huge.shape.reset();
  huge.strides.reset();
  huge.reader_notes = {facts::note_ndim_beyond_limit(1'000'000)};
  expect_round_trip(huge, "ndim past the limit");

  TensorFacts negative = full_tensor();
  negative.ndim = -2;
  negative.shape.reset();
  negative.strides.reset();
  negative.reader_notes = {facts::note_ndim_negative(-2)};
  expect_round_trip(negative, "negative ndim");

  TensorFacts major_two;
  major_two.version = {2, 7};
  major_two.flags = 0x80;
  major_two.body_read = false;
  major_two.reader_notes = {facts::note_unknown_major(2)};
  expect_round_trip(major_two, "unknown major version");

  TensorFacts partial_runtime = full_tensor();
  partial_runtime.runtime = facts::RuntimeFacts{};
  partial_runtime.runtime->default_context = false;
  expect_round_trip(partial_runtime, "partial runtime");
  partial_runtime.runtime = facts::RuntimeFacts{};
  expect_round_trip(partial_runtime, "empty runtime");

  TensorFacts every_dtype = full_tensor();
  for (const dlpack::DtypeCodeName& code : dlpack::dtype_code_table()) {
    every_dtype.dtype = {code.code, 8, 3};
    expect_round_trip(every_dtype, std::string(code.name));
  }
  TensorFacts every_device = full_tensor();
  for (const dlpack::DeviceTypeName& type : dlpack::device_type_table()) {
    every_device.device_type = type.value;
    expect_round_trip(every_device, std::string(type.name));
  }
}

TEST(CapsuleRoundTrip, CanonicalFormUsesNamesAndHexAddresses) {
  nlohmann::ordered_json json = to_capsule_json(full_tensor());
  EXPECT_EQ(json["flags"], "READ_ONLY|IS_COPIED");
  EXPECT_EQ(json["dl_tensor"]["data"], "0x7f0000001000");
  EXPECT_EQ(json["dl_tensor"]["device"]["device_type"], "kDLOneAPI");
  EXPECT_EQ(json["dl_tensor"]["dtype"]["code"], "kDLComplex");
  EXPECT_EQ(json["runtime"]["alloc_base"], "0x7f0000000000");
  EXPECT_EQ(json["runtime"]["usm_kind"], "shared");
}

// Random structs, read by the in-memory reader, then written and parsed.
TEST(CapsuleRoundTrip, FactsReadFromRandomStructs) {
  std::mt19937_64 random(20240601);
  auto pick = [&random](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(random);
  };
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::int64_t> shape(8);
    std::vector<std::int64_t> strides(8);
    for (std::size_t i = 0; i < 8; ++i) {
      shape[i] = static_cast<std::int64_t>(random());
      strides[i] = pick(-3, 3);
    }
    dlpack::DLTensor tensor{};
    tensor.data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(pick(0, 1) ? random() : 0));
    tensor.device = {static_cast<std::int32_t>(pick(-2, 20)), static_cast<std::int32_t>(random())};
    std::int64_t ndim_choices[] = {-1,        0,        1, 2, 8, facts::kMaxReadableDims + 1,
                                   INT32_MAX, INT32_MIN};
    tensor.ndim = static_cast<std::int32_t>(ndim_choices[pick(0, 7)]);
    tensor.dtype = {static_cast<std::uint8_t>(pick(0, 255)),
                    static_cast<std::uint8_t>(pick(0, 255)),
                    static_cast<std::uint16_t>(pick(0, 65535))};
    // Arrays only where the reader may read them: 0 <= ndim <= 8 here.
    bool readable = tensor.ndim >= 0 && tensor.ndim <= 8;
    tensor.shape = readable && pick(0, 3) != 0 ? shape.data() : nullptr;
    tensor.strides = readable && pick(0, 1) != 0 ? strides.data() : nullptr;
    tensor.byte_offset = random();

    TensorFacts facts;
    if (pick(0, 1) == 0) {
      dlpack::DLManagedTensor managed{tensor, pick(0, 1) ? &shape : nullptr, nullptr};
      facts = facts::read_managed_tensor(&managed, "random");
    } else {
      dlpack::DLManagedTensorVersioned managed{};
      managed.version = {static_cast<std::uint32_t>(pick(0, 4) == 0 ? 2 : 1),
                         static_cast<std::uint32_t>(pick(0, 9))};
      managed.flags = random();
      managed.dl_tensor = tensor;
      facts = facts::read_managed_tensor_versioned(&managed, "random");
    }
    if (pick(0, 2) == 0) {
      facts::RuntimeFacts runtime;
      if (pick(0, 1)) runtime.usm_kind = static_cast<facts::UsmKind>(pick(0, 3));
      if (pick(0, 1)) runtime.owner_root_index = static_cast<std::int32_t>(random());
      if (pick(0, 1)) runtime.owner_sub_device_index = static_cast<std::int32_t>(pick(0, 15));
      if (pick(0, 1)) runtime.owner_device_name = "opencl:cpu:0";
      if (pick(0, 1)) runtime.default_context = pick(0, 1) == 1;
      if (pick(0, 1)) runtime.alloc_base = random();
      if (pick(0, 1)) runtime.alloc_size = random();
      facts.runtime = runtime;
    }
    expect_round_trip(facts, "round " + std::to_string(round));
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace dlpack_usm::capsule
