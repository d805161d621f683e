// One element size and one element count for the whole tool: sub-byte types
// take a whole byte of storage (dlpack.h's GetDataSize), and an overflowing
// product of the shape is reported, not wrapped.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "facts/element_size.hpp"

namespace dlpack_usm::facts {
namespace {

TEST(ElementStorageBytes, RoundsSubByteTypesUpToAByte) {
  EXPECT_EQ(element_storage_bytes({dlpack::kDLUInt, 4, 1}), 1u);
  EXPECT_EQ(element_storage_bytes({dlpack::kDLFloat6_e2m3fn, 6, 1}), 1u);
  EXPECT_EQ(element_storage_bytes({dlpack::kDLInt, 1, 1}), 1u);
  // Lanes pack before rounding: three 4-bit lanes are 12 bits, 2 bytes.
  EXPECT_EQ(element_storage_bytes({dlpack::kDLUInt, 4, 3}), 2u);
}

TEST(ElementStorageBytes, WholeByteTypes) {
  EXPECT_EQ(element_storage_bytes({dlpack::kDLFloat, 32, 1}), 4u);
  EXPECT_EQ(element_storage_bytes({dlpack::kDLComplex, 128, 1}), 16u);
  EXPECT_EQ(element_storage_bytes({dlpack::kDLFloat, 32, 4}), 16u);
  EXPECT_EQ(element_storage_bytes({dlpack::kDLFloat, 0, 1}), 0u);
  EXPECT_EQ(element_storage_bytes({dlpack::kDLUInt, 255, 65535}), (255u * 65535u + 7u) / 8u);
}

TEST(CheckedElementCount, ProductOfTheExtents) {
  EXPECT_EQ(checked_element_count(std::vector<std::int64_t>{}), 1u);
  EXPECT_EQ(checked_element_count(std::vector<std::int64_t>{2, 3, 4}), 24u);
}

TEST(CheckedElementCount, OverflowAndNegativeExtentsHaveNoCount) {
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_EQ(checked_element_count(std::vector<std::int64_t>{big, big}), std::nullopt);
  EXPECT_EQ(checked_element_count(std::vector<std::int64_t>{2, -1}), std::nullopt);
}

TEST(CheckedElementCount, AZeroExtentMakesZeroWhateverCameFirst) {
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_EQ(checked_element_count(std::vector<std::int64_t>{big, big, 0}), 0u);
}

}  // namespace
}  // namespace dlpack_usm::facts
