// The fast reader of one JSON line of a capsule file: `capsule check` of a
// capture with millions of tensors spends its time here. The line's tensor
// object is scanned byte by byte (line_scanner.hpp) straight into Facts: no
// document tree, and once its buffers have grown to the largest tensor,
// nothing allocated per tensor.
//
// It reads only what it reads exactly as the reference reader does
// (capsule_fields.cpp over nlohmann::json, which words every refusal).
// Anything else it declines: a syntax or type error, an unknown or repeated
// key, a string with an escape or a byte past printable ASCII, a fraction, a
// major version the model does not know, ndim past the reader's limit. The
// caller then hands the line to the reference reader, whose facts or
// message are the answer, so the two readers never differ
// (tests/e2e/capsule_fast_paths_test.cpp, tests/fuzz/line_reader_fuzzer.cpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::capsule {

class TensorLineReader {
 public:
  TensorLineReader();
  ~TensorLineReader();
  TensorLineReader(const TensorLineReader&) = delete;
  TensorLineReader& operator=(const TensorLineReader&) = delete;

  // Reads the tensor object of `line` (its text without the newline, with
  // at least 64 readable bytes after it, capsule_file.hpp's kLinePadding:
  // the scanner reads past the end) into `facts`, whose buffers it reuses;
  // the facts' origin is `origin`,
  // with the line's own "origin" after it in parentheses. False where the
  // reference reader must read the line; `facts` then means nothing.
  bool read(std::string_view line, std::string_view origin, facts::TensorFacts& facts);

  // How many of the lines read were read by the shape of the last line read
  // in full (line_shape.hpp), not in full: nearly every line of a capture.
  std::size_t lines_read_by_shape() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace dlpack_usm::capsule
