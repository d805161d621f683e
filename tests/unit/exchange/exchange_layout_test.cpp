// The layouts and the pattern the round trips are built from, checked
// against strides and offsets worked out by hand.
#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "exchange/layout.hpp"
#include "exchange/pattern.hpp"
#include "exchange_test_support.hpp"

namespace dlpack_usm::exchange {
namespace {

using Dims = std::vector<std::int64_t>;

TEST(ExchangeLayout, StridesAndOffsetsOfEveryOrder) {
  // 3x5x7 of 4-byte elements.
  Layout c = make_layout({3, 5, 7}, 4, Order::c);
  EXPECT_EQ(c.strides, (Dims{35, 7, 1}));
  EXPECT_EQ(c.byte_offset, 0u);
  EXPECT_EQ(c.allocation_bytes, 420u);

  Layout f = make_layout({3, 5, 7}, 4, Order::f);
  EXPECT_EQ(f.strides, (Dims{1, 3, 15}));
  EXPECT_EQ(f.allocation_bytes, 420u);

  Layout strided = make_layout({3, 5, 7}, 4, Order::strided);
  EXPECT_EQ(strided.strides, (Dims{70, 14, 2}));
  EXPECT_EQ(strided.allocation_bytes, 840u);

  Layout offset = make_layout({3, 5, 7}, 4, Order::offset);
  EXPECT_EQ(offset.strides, (Dims{35, 7, 1}));
  EXPECT_EQ(offset.byte_offset, 12u);
  EXPECT_EQ(offset.allocation_bytes, 432u);

  Layout negative = make_layout({3, 5, 7}, 4, Order::negative);
  EXPECT_EQ(negative.strides, (Dims{-35, 7, 1}));
  EXPECT_EQ(negative.byte_offset, 2u * 35 * 4);
  EXPECT_EQ(negative.allocation_bytes, 420u);
}

TEST(ExchangeLayout, SizeZeroAndScalars) {
  Layout empty = make_layout({4, 0, 3}, 8, Order::negative);
  EXPECT_EQ(empty.allocation_bytes, 0u);
  EXPECT_EQ(empty.byte_offset, 0u);
  Layout scalar = make_layout({}, 16, Order::f);
  EXPECT_TRUE(scalar.strides.empty());
  EXPECT_EQ(scalar.allocation_bytes, 16u);
}

TEST(ExchangeLayout, RejectsNegativeExtentsAndOverflow) {
  EXPECT_THROW(make_layout({3, -1}, 4, Order::c), Error);
  EXPECT_THROW(make_layout({INT64_MAX, 4}, 4, Order::c), Error);
}

TEST(ExchangeLayout, PositionsVisitEveryElementOnce) {
  for (Order order : {Order::c, Order::f, Order::strided, Order::offset, Order::negative}) {
    SCOPED_TRACE(to_string(order));
    Layout layout = make_layout({4, 3, 2}, 2, order);
    std::set<std::int64_t> seen;
    for (std::uint64_t i = 0; i < 24; ++i) {
      std::int64_t at = static_cast<std::int64_t>(layout.byte_offset) +
                        element_byte_position(i, layout.shape, layout.strides, 2);
      EXPECT_GE(at, 0);
      EXPECT_LE(at + 2, static_cast<std::int64_t>(layout.allocation_bytes));
      EXPECT_TRUE(seen.insert(at).second) << "element " << i << " shares a position";
    }
  }
}

TEST(ExchangeLayout, UnravelAgreesWithTheOdometer) {
  // The exchange's reader and the tests' producer compute positions in two
  // different ways; they must agree for every layout.
  for (Order order : {Order::c, Order::f, Order::strided, Order::offset, Order::negative}) {
    SCOPED_TRACE(to_string(order));
    Layout layout = make_layout({2, 3, 4}, 4, order);
    EXPECT_EQ(pattern_image(layout, 4), testing::odometer_image(layout, 4));
  }
}

TEST(ExchangeLayout, PatternDiffersBetweenNeighbours) {
  std::vector<std::byte> a(16), b(16);
  for (std::uint64_t i = 0; i < 1000; ++i) {
    pattern_element(i, 16, a.data());
    pattern_element(i + 1, 16, b.data());
    EXPECT_NE(a, b);
    // Not merely the gap filler either.
    EXPECT_NE(a, std::vector<std::byte>(16, kGapFiller));
  }
}

TEST(ExchangeLayout, ParsesOrderNames) {
  EXPECT_EQ(parse_order("C"), Order::c);
  EXPECT_EQ(parse_order("f"), Order::f);
  EXPECT_EQ(parse_order("negative"), Order::negative);
  EXPECT_FALSE(parse_order("Z"));
  EXPECT_FALSE(parse_order(""));
}

}  // namespace
}  // namespace dlpack_usm::exchange
