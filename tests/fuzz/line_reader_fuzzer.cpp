// libFuzzer target: the line reader (capsule/tensor_line_reader.hpp)
// against the reference reader on arbitrary bytes as one JSON line. The
// line reader may decline anything; what it reads must be exactly what the
// reference reader reads from the same line, field by field, and a line the
// reference reader refuses must never be read. The line is followed by
// kLinePadding bytes of padding, as in a capture's batch, and nothing past
// that is readable to it (AddressSanitizer sees a read beyond).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "capsule/tensor_line_reader.hpp"
#include "capsule_test_support.hpp"
#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlpack_usm;
  using capsule::testing::described;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.find('\n') != std::string_view::npos) return 0;  // one line
  // The line and its padding in a block of their own size.
  std::unique_ptr<char[]> block(new char[size + capsule::kLinePadding]);
  std::memcpy(block.get(), data, size);
  std::memset(block.get() + size, ' ', capsule::kLinePadding);
  capsule::JsonLine line{{block.get(), size}, 7, 1, 3};

  static capsule::TensorLineReader reader;
  static facts::TensorFacts fast;  // reused, as a worker reuses it
  if (!reader.read(line.text, "fuzz.jsonl#3", fast)) return 0;
  facts::TensorFacts reference;
  try {
    capsule::read_json_line(line, "fuzz.jsonl", reader, capsule::LineReading::reference, reference);
  } catch (const Error& error) {
    fuzz::broken("the line reader read a line the reference reader refuses", error.what());
  }
  if (described(fast) != described(reference)) {
    fuzz::broken("the line reader's facts differ", described(fast) + "\n" + described(reference));
  }
  fuzz::check_tensor(fast);
  return 0;
}
