// What a capture's lines share: every byte that is not a value. A capture
// writes each tensor with the same keys in the same order, spaced the same
// way, so the line reader keeps the shape of the last line it read in full
// (the bytes between its values, and which field each value is) and reads
// the next line by comparing those bytes and reading only the values, with
// the same readers. A line whose bytes differ anywhere outside its values is
// read in full again, and its shape kept in turn: the shape only skips the
// keys, punctuation and spaces the full reading would have accepted the
// same way, never a check of a value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlpack_usm::capsule {

inline constexpr std::size_t kLiteralPadding = 8;

// The object a value is a member of, and its key's place in that object's
// keys (tensor_line_reader.cpp's lists).
enum class ShapeObject : std::uint8_t { tensor, version, dl_tensor, device, dtype, runtime };

struct ShapeValue {
  ShapeObject object;
  std::uint8_t key;
};

class LineShape {
 public:
  bool empty() const { return values_.empty(); }
  const std::vector<ShapeValue>& values() const { return values_; }
  // The bytes before value i, then those after the last (values().size()).
  std::string_view literal(std::size_t i) const {
    return std::string_view(literals_).substr(starts_[i], starts_[i + 1] - starts_[i]);
  }
  // The keys the line's tensor object held (bit k for its keys[k]).
  std::uint32_t tensor_keys() const { return tensor_keys_; }

  // Recording a line as the full reading reads it: each value's place and
  // where it begins and ends in `line`, then the tensor's keys at the end.
  void begin(std::string_view line) {
    line_ = line;
    literals_.clear();
    values_.clear();
    starts_.assign(1, 0);
    last_end_ = 0;
  }
  void value(ShapeObject object, std::uint8_t key, const char* begin) {
    auto offset = static_cast<std::size_t>(begin - line_.data());
    literals_.append(line_.substr(last_end_, offset - last_end_));
    starts_.push_back(static_cast<std::uint32_t>(literals_.size()));
    values_.push_back({object, key});
  }
  void value_end(const char* end) { last_end_ = static_cast<std::size_t>(end - line_.data()); }
  void end(std::uint32_t tensor_keys) {
    literals_.append(line_.substr(last_end_));
    starts_.push_back(static_cast<std::uint32_t>(literals_.size()));
    // LineScanner::match reads a word at a time, up to 7 bytes past a
    // literal.
    literals_.append(kLiteralPadding, '\0');
    tensor_keys_ = tensor_keys;
    line_ = {};
  }

 private:
  std::string literals_;
  std::vector<std::uint32_t> starts_;  // of each literal in literals_, and its end
  std::vector<ShapeValue> values_;
  std::uint32_t tensor_keys_ = 0;
  std::string_view line_;  // while recording
  std::size_t last_end_ = 0;
};

}  // namespace dlpack_usm::capsule
