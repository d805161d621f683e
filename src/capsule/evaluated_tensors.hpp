// The tensors of a capsule file with the findings of the rule catalog, as
// `capsule check` walks them. The JSON lines of a capture (millions of
// tensors) are read and evaluated a batch of lines at a time on worker
// threads, and on the calling thread while it waits for one, a thread per
// core, and handed over in file order on the calling thread, which prints
// them: reading and judging take most of the time, and a machine's cores
// share them. A few batches are in flight at a time, so
// memory stays at a few hundred KiB whatever the file's size. Other files (a
// tensor object, an array of them) are read and evaluated on the calling
// thread, tensor by tensor.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

#include "capsule/capsule_file.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::capsule {

struct EvaluatedTensor {
  std::string_view origin;  // "FILE#N (its own origin)"
  const std::vector<rules::Finding>& findings;
  const TensorPlace& place;
};
using EvaluatedTensorHandler = std::function<void(const EvaluatedTensor&)>;

// Every tensor of `path` with its findings (rules::evaluate's), in file
// order. Throws what for_each_placed_tensor throws, after handing over
// every tensor before the problem. `member_lines`: places carry the lines
// of their members (a JSON line's all lie on its own line, the place's).
// `workers`: the threads that judge JSON lines beside the calling thread
// (0: one per core but the calling thread's, at least 1, at most 8).
void for_each_evaluated_tensor(const std::filesystem::path& path,
                               const EvaluatedTensorHandler& handler, bool member_lines,
                               std::size_t workers = 0);

}  // namespace dlpack_usm::capsule
