// The walk in address order and the pattern written a window at a time:
// every element once, each above the last, at element_byte_position's
// place; the windows put together are pattern_image, byte for byte, in
// every layout and for windows that cut elements.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <set>
#include <vector>

#include "exchange/address_order.hpp"
#include "exchange/layout.hpp"
#include "exchange/pattern.hpp"

namespace dlpack_usm::exchange {
namespace {

using Dims = std::vector<std::int64_t>;

const Order kOrders[] = {Order::c, Order::f, Order::strided, Order::offset, Order::negative};
const Dims kShapes[] = {{3, 5, 7}, {1, 9}, {6}, {}, {2, 0, 3}, {4, 1, 1, 3}, {1, 1}};

TEST(AddressOrder, EveryElementOnceEachAboveTheLast) {
  for (Order order : kOrders) {
    for (const Dims& shape : kShapes) {
      Layout layout = make_layout(shape, 4, order);
      std::set<std::uint64_t> seen;
      // Positions are relative to data + byte_offset: below it under a
      // negative stride.
      std::optional<std::int64_t> last;
      bool nested = walk_in_address_order(
          layout.shape, layout.strides, 4, [&](std::uint64_t index, std::int64_t position) {
            if (last) {
              EXPECT_GT(position, *last) << to_string(order);
            }
            EXPECT_EQ(position, element_byte_position(index, layout.shape, layout.strides, 4));
            EXPECT_TRUE(seen.insert(index).second) << "twice: " << index;
            last = position;
          });
      EXPECT_TRUE(nested) << to_string(order);
      std::uint64_t count = 1;
      for (std::int64_t extent : shape) count *= static_cast<std::uint64_t>(extent);
      EXPECT_EQ(seen.size(), count) << to_string(order);
    }
  }
}

TEST(AddressOrder, AxesThatOverlapOrInterleaveAreNotWalked) {
  int visits = 0;
  auto count = [&](std::uint64_t, std::int64_t) { ++visits; };
  EXPECT_FALSE(walk_in_address_order({3, 3}, {1, 1}, 4, count));  // overlapping rows
  EXPECT_FALSE(walk_in_address_order({4}, {0}, 4, count));        // a broadcast axis
  EXPECT_FALSE(walk_in_address_order({2, 3}, {2, 3}, 4, count));  // interleaved axes
  EXPECT_EQ(visits, 0);
  // Extent-1 axes carry any stride without overlapping anything.
  EXPECT_TRUE(walk_in_address_order({1, 3}, {0, 1}, 4, count));
  EXPECT_EQ(visits, 3);
}

TEST(AddressOrder, WindowsPutTogetherAreTheWholeImage) {
  for (Order order : kOrders) {
    for (const Dims& shape : kShapes) {
      for (std::uint64_t element_bytes : {1U, 4U, 16U}) {
        Layout layout = make_layout(shape, element_bytes, order);
        std::vector<std::byte> whole = pattern_image(layout, element_bytes);
        for (std::uint64_t window : {1U, 5U, 64U, 1U << 20}) {
          std::vector<std::byte> joined;
          write_pattern_windows(layout, element_bytes, window,
                                [&](std::uint64_t offset, std::span<const std::byte> bytes) {
                                  EXPECT_EQ(offset, joined.size());
                                  EXPECT_LE(bytes.size(), window);
                                  joined.insert(joined.end(), bytes.begin(), bytes.end());
                                });
          EXPECT_TRUE(joined == whole) << to_string(order) << " window " << window;
        }
      }
    }
  }
}

}  // namespace
}  // namespace dlpack_usm::exchange
