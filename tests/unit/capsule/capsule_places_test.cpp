// Where each tensor and field of a capsule file lies, as capsule check
// --sarif reports it: the tensor's JSON pointer and line, each member's line
// (its key's), in one-object files (after blank lines), arrays and JSON
// lines; and the pointer of a finding's field.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "capsule/capsule_file.hpp"

namespace dlpack_usm::capsule {
namespace {

namespace fs = std::filesystem;

std::vector<TensorPlace> places_of(const std::string& text) {
  fs::path path = fs::temp_directory_path() / ("capsule-places-" + std::to_string(getpid()));
  std::ofstream(path) << text;
  std::vector<TensorPlace> places;
  for_each_placed_tensor(
      path, [&](facts::TensorFacts&&, const TensorPlace& place) { places.push_back(place); });
  fs::remove(path);
  return places;
}

constexpr const char* kTensor = R"({
  "version": {"major": 1, "minor": 3},
  "dl_tensor": {
    "data": "0x1000",
    "device": {"device_type": "kDLCPU", "device_id": 0},
    "ndim": 2,
    "dtype": "float32",
    "shape": [2, 3],
    "strides": [
      3,
      1
    ]
  }
})";

TEST(CapsulePlaces, OneObjectFileAfterBlankLines) {
  // fmt, not operator+: GCC 12 at -O2 sees a false -Warray-bounds there.
  std::vector<TensorPlace> places = places_of(fmt::format("\n\n{}\n", kTensor));
  ASSERT_EQ(places.size(), 1u);
  const TensorPlace& place = places[0];
  EXPECT_EQ(place.pointer, "");
  EXPECT_EQ(place.line, 3u);
  EXPECT_EQ(place.line_of("/version"), 4u);
  EXPECT_EQ(place.line_of("/dl_tensor/device/device_id"), 7u);
  // A number in an array is on its array's line; a missing member on its
  // nearest parent's; nothing known, on the tensor's.
  EXPECT_EQ(place.line_of("/dl_tensor/strides/1"), 11u);
  EXPECT_EQ(place.line_of("/dl_tensor/byte_offset"), 5u);
  EXPECT_EQ(place.line_of("/runtime/usm_kind"), 3u);
}

TEST(CapsulePlaces, ArrayEntriesAreNumberedAndPlaced) {
  std::vector<TensorPlace> places = places_of(fmt::format("[\n{},\n{}\n]\n", kTensor, kTensor));
  ASSERT_EQ(places.size(), 2u);
  EXPECT_EQ(places[0].pointer, "/0");
  EXPECT_EQ(places[0].line, 2u);
  EXPECT_EQ(places[1].pointer, "/1");
  EXPECT_EQ(places[1].index, 1u);
  EXPECT_EQ(places[1].line, 16u);
  EXPECT_EQ(places[1].line_of("/1/dl_tensor/strides"), 24u);
  // Each entry keeps only its own members.
  EXPECT_EQ(places[1].line_of("/0/dl_tensor"), 16u);
}

TEST(CapsulePlaces, JsonLinesAreATensorALine) {
  std::vector<TensorPlace> places = places_of(
      "{\"version\": {\"major\": 1, \"minor\": 3}, \"dl_tensor\": {\"data\": null, \"device\": "
      "{\"device_type\": 1, \"device_id\": 0}, \"ndim\": 0, \"dtype\": \"float32\", \"shape\": "
      "[], \"strides\": null}}\n\n{\"version\": {\"major\": 2, \"minor\": 0}}\n");
  ASSERT_EQ(places.size(), 2u);
  EXPECT_EQ(places[0].line_of("/dl_tensor/shape"), 1u);
  EXPECT_EQ(places[1].pointer, "");
  EXPECT_EQ(places[1].line, 3u);
  EXPECT_EQ(places[1].line_of("/version/major"), 3u);
}

TEST(CapsulePlaces, FieldsOfFindingsAsPointers) {
  EXPECT_EQ(pointer_of_field("dl_tensor.strides[1]"), "/dl_tensor/strides/1");
  EXPECT_EQ(pointer_of_field("dl_tensor.device.device_id"), "/dl_tensor/device/device_id");
  EXPECT_EQ(pointer_of_field("dl_tensor.data+byte_offset"), "/dl_tensor/data");
  EXPECT_EQ(pointer_of_field("flags"), "/flags");
  EXPECT_EQ(pointer_of_field(""), "");
}

}  // namespace
}  // namespace dlpack_usm::capsule
