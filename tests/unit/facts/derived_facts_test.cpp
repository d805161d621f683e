// derive(): element count, byte extent from the strides, contiguity and
// alignment, including overflow and the layouts real producers emit.
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "facts/derived.hpp"

namespace dlpack_usm::facts {
namespace {

TensorFacts tensor(std::vector<std::int64_t> shape,
                   std::optional<std::vector<std::int64_t>> strides,
                   dl::DLDataType dtype = {dl::kDLFloat, 32, 1}) {
  TensorFacts facts;
  facts.data = 0x10000;
  facts.ndim = static_cast<std::int64_t>(shape.size());
  facts.shape = std::move(shape);
  facts.strides = std::move(strides);
  facts.dtype = dtype;
  return facts;
}

TEST(DerivedFacts, RowMajorTensor) {
  DerivedFacts derived = derive(tensor({2, 3}, std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(derived.element_bytes, 4U);
  EXPECT_EQ(derived.element_count, 6U);
  EXPECT_EQ(derived.lowest_byte, 0);
  EXPECT_EQ(derived.end_byte, 24);
  EXPECT_EQ(derived.contiguity, Contiguity::c);
}

TEST(DerivedFacts, ColumnMajorTensor) {
  DerivedFacts derived = derive(tensor({2, 3}, std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(derived.contiguity, Contiguity::f);
  EXPECT_EQ(derived.end_byte, 24);
}

TEST(DerivedFacts, StridedViewIsNeitherAndReachesFurther) {
  DerivedFacts derived = derive(tensor({2, 3}, std::vector<std::int64_t>{6, 2}));
  EXPECT_EQ(derived.contiguity, Contiguity::neither);
  EXPECT_EQ(derived.element_count, 6U);
  // Last element at 1*6 + 2*2 = 10 elements: bytes [0, 44).
  EXPECT_EQ(derived.end_byte, 44);
}

TEST(DerivedFacts, NullStridesMeanRowMajor) {
  DerivedFacts derived = derive(tensor({4, 5}, std::nullopt));
  EXPECT_EQ(derived.effective_strides, (std::vector<std::int64_t>{5, 1}));
  EXPECT_EQ(derived.contiguity, Contiguity::c);
  EXPECT_EQ(derived.end_byte, 80);
}

TEST(DerivedFacts, NegativeStridesExtendBelowTheFirstElement) {
  DerivedFacts derived = derive(tensor({3}, std::vector<std::int64_t>{-2}));
  EXPECT_EQ(derived.lowest_byte, -16);
  EXPECT_EQ(derived.end_byte, 4);
  EXPECT_EQ(derived.contiguity, Contiguity::neither);
}

TEST(DerivedFacts, ExtentOneDimensionsMayCarryAnyStride) {
  DerivedFacts derived = derive(tensor({1, 4}, std::vector<std::int64_t>{999, 1}));
  EXPECT_EQ(derived.contiguity, Contiguity::both);
  EXPECT_EQ(derived.end_byte, 16);
  derived = derive(tensor({3, 1}, std::vector<std::int64_t>{1, -77}));
  EXPECT_EQ(derived.contiguity, Contiguity::both);
  EXPECT_EQ(derived.lowest_byte, 0);
  EXPECT_EQ(derived.end_byte, 12);
}

TEST(DerivedFacts, SizeZeroTensorHasNoExtentWhateverTheStrides) {
  DerivedFacts derived = derive(tensor({0, 5}, std::vector<std::int64_t>{123456, -9}));
  EXPECT_EQ(derived.element_count, 0U);
  EXPECT_EQ(derived.lowest_byte, 0);
  EXPECT_EQ(derived.end_byte, 0);
  EXPECT_EQ(derived.contiguity, Contiguity::both);
}

TEST(DerivedFacts, ScalarHasOneElement) {
  TensorFacts scalar = tensor({}, std::nullopt);
  scalar.shape.reset();
  DerivedFacts derived = derive(scalar);
  EXPECT_EQ(derived.element_count, 1U);
  EXPECT_EQ(derived.end_byte, 4);
  EXPECT_EQ(derived.contiguity, Contiguity::both);
}

TEST(DerivedFacts, ElementCountOverflowIsReportedNotWrapped) {
  std::int64_t big = std::int64_t{1} << 40;
  DerivedFacts derived = derive(tensor({big, big}, std::nullopt));
  EXPECT_FALSE(derived.element_count.has_value());
  EXPECT_TRUE(derived.element_count_overflows);
  // A zero extent makes the product 0 whatever overflowed before it.
  derived = derive(tensor({big, big, 0}, std::nullopt));
  EXPECT_EQ(derived.element_count, 0U);
  EXPECT_FALSE(derived.element_count_overflows);
}

TEST(DerivedFacts, ExtentOverflowIsReportedNotWrapped) {
  DerivedFacts derived =
      derive(tensor({3}, std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max() / 2}));
  EXPECT_TRUE(derived.extent_overflows);
  EXPECT_FALSE(derived.end_byte.has_value());
  // In elements it fits, in bytes (x4) it does not.
  derived = derive(tensor({2}, std::vector<std::int64_t>{std::int64_t{1} << 62}));
  EXPECT_TRUE(derived.extent_overflows);
}

TEST(DerivedFacts, UnreadableShapeLeavesCountAndExtentUnknown) {
  TensorFacts unreadable = tensor({2, 3}, std::nullopt);
  unreadable.shape.reset();
  DerivedFacts derived = derive(unreadable);
  EXPECT_FALSE(derived.element_count.has_value());
  EXPECT_FALSE(derived.element_count_overflows);
  EXPECT_EQ(derived.contiguity, Contiguity::unknown);

  TensorFacts negative = tensor({2, -3}, std::vector<std::int64_t>{3, 1});
  EXPECT_FALSE(derive(negative).element_count.has_value());

  TensorFacts body_unread = tensor({2, 3}, std::nullopt);
  body_unread.body_read = false;
  EXPECT_FALSE(derive(body_unread).element_count.has_value());
}

TEST(DerivedFacts, ElementBytesRoundUpSubByteTypesAndCountLanes) {
  EXPECT_EQ(derive(tensor({2}, std::nullopt, {dl::kDLBool, 8, 1})).element_bytes, 1U);
  EXPECT_EQ(derive(tensor({2}, std::nullopt, {dl::kDLFloat4_e2m1fn, 4, 1})).element_bytes, 1U);
  EXPECT_EQ(derive(tensor({2}, std::nullopt, {dl::kDLFloat, 32, 4})).element_bytes, 16U);
  EXPECT_EQ(derive(tensor({2}, std::nullopt, {dl::kDLComplex, 128, 1})).element_bytes, 16U);
}

TEST(DerivedFacts, AlignmentOfDataAndFirstElement) {
  EXPECT_EQ(alignment_of(0), 0U);
  EXPECT_EQ(alignment_of(0x1004), 4U);
  EXPECT_EQ(alignment_of(0x1000), 4096U);
  EXPECT_EQ(alignment_of(0x100000), 4096U);
  EXPECT_EQ(alignment_of(0x100000, 256), 256U);

  TensorFacts view = tensor({4}, std::nullopt);
  view.data = 0x7f0000000100;
  view.byte_offset = 12;
  DerivedFacts derived = derive(view);
  EXPECT_EQ(derived.data_alignment, 256U);
  EXPECT_EQ(derived.first_element_alignment, 4U);
  EXPECT_FALSE(derived.data_is_handle);
}

TEST(DerivedFacts, AHandleHasNoAlignment) {
  // kDLMetal's data is an id<MTLBuffer>: its value is no address. The
  // extent still says which bytes of the buffer the elements occupy.
  TensorFacts metal = tensor({4}, std::vector<std::int64_t>{1});
  metal.device_type = dl::kDLMetal;
  metal.data = 0x600001e4c000;
  metal.byte_offset = 12;
  DerivedFacts derived = derive(metal);
  EXPECT_TRUE(derived.data_is_handle);
  EXPECT_EQ(derived.data_alignment, 0U);
  EXPECT_EQ(derived.first_element_alignment, 0U);
  EXPECT_EQ(derived.end_byte, 16);
}

TEST(DerivedFacts, RowMajorStridesOfShape) {
  EXPECT_EQ(row_major_strides({2, 3, 4}), (std::vector<std::int64_t>{12, 4, 1}));
  EXPECT_EQ(row_major_strides({}), (std::vector<std::int64_t>{}));
  EXPECT_EQ(row_major_strides({0, 3}), (std::vector<std::int64_t>{3, 1}));
  std::int64_t big = std::int64_t{1} << 40;
  EXPECT_FALSE(row_major_strides({big, big, 2}).has_value());
}

}  // namespace
}  // namespace dlpack_usm::facts
