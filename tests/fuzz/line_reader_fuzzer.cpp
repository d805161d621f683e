// libFuzzer target: the line reader (capsule/tensor_line_reader.hpp)
// against the reference reader on arbitrary bytes as JSON lines: one line,
// or two, the second read after the first by the same reader, so that it is
// read by the first line's shape where their bytes between values agree
// (capsule/line_shape.hpp). The line reader may decline anything; what it
// reads must be exactly what the reference reader reads from the same line,
// field by field, and a line the reference reader refuses must never be
// read. Each line is followed by kLinePadding bytes of padding, as in a
// capture's batch, and nothing past that is readable to it
// (AddressSanitizer sees a read beyond).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "capsule/tensor_line_reader.hpp"
#include "capsule_test_support.hpp"
#include "fuzz_checks.hpp"

namespace {

using namespace dlpack_usm;

// Reads `text` as the line reader does and checks it against the
// reference reader.
void check_line(capsule::TensorLineReader& reader, facts::TensorFacts& fast,
                std::string_view text) {
  using capsule::testing::described;
  // The line and its padding in a block of their own size.
  std::unique_ptr<char[]> block(new char[text.size() + capsule::kLinePadding]);
  std::memcpy(block.get(), text.data(), text.size());
  std::memset(block.get() + text.size(), ' ', capsule::kLinePadding);
  capsule::JsonLine line{{block.get(), text.size()}, 7, 1, 3};
  if (!reader.read(line.text, "fuzz.jsonl#3", fast)) return;
  facts::TensorFacts reference;
  capsule::TensorLineReader unused;
  try {
    capsule::read_json_line(line, "fuzz.jsonl", unused, capsule::LineReading::reference, reference);
  } catch (const Error& error) {
    fuzz::broken("the line reader read a line the reference reader refuses", error.what());
  }
  if (described(fast) != described(reference)) {
    fuzz::broken("the line reader's facts differ", described(fast) + "\n" + described(reference));
  }
  fuzz::check_tensor(fast);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::size_t newline = bytes.find('\n');
  std::string_view first = bytes.substr(0, newline);
  std::string_view second =
      newline == std::string_view::npos ? std::string_view() : bytes.substr(newline + 1);
  if (second.find('\n') != std::string_view::npos) return 0;  // two lines at most
  // A reader of its own for each input, whose Facts are reused from the
  // first line to the second, as a worker reuses them.
  capsule::TensorLineReader reader;
  facts::TensorFacts fast;
  check_line(reader, fast, first);
  if (newline != std::string_view::npos) check_line(reader, fast, second);
  return 0;
}
