// results.jsonl: one JSON line per finished case, written as the case
// finishes so that the file survives a crash of the runner itself.
#pragma once

#include <string>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::cli {

class ResultStream {
 public:
  // Opens `path` (empty: no stream) before any case runs: an unwritable path
  // is an environment error then, not after the run. A regular file is
  // locked for this run alone (another run writing it is an environment
  // error) and emptied; a character device or FIFO is written in place.
  explicit ResultStream(const std::string& path);
  ~ResultStream();
  ResultStream(const ResultStream&) = delete;
  ResultStream& operator=(const ResultStream&) = delete;

  // Appends the case's line with one write(), so a line is never cut by
  // another writer. Throws Error(environment) on a write error (a full
  // disk): the run stops and says so, rather than leave a cut file behind
  // an exit code of 0; a regular file is cut back to its last whole line.
  void write(const suite::RecordedCase& recorded);

 private:
  [[noreturn]] void cut_back_and_fail(int error);

  std::string path_;
  int fd_ = -1;
  bool regular_ = false;         // a file of our own (locked, emptied), not a device or FIFO
  std::size_t whole_bytes_ = 0;  // the file's length after its last whole line
};

}  // namespace dlpack_usm::cli
