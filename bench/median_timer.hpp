// Median latency of one operation, in nanoseconds. Operations far shorter
// than the clock's resolution are timed in batches and divided, so a sample
// measures the operation and not the clock.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

namespace dlpack_usm::bench {

struct Timing {
  double median_ns = 0;
  double min_ns = 0;
  std::uint64_t samples = 0;
  std::uint64_t batch = 0;
};

// Runs `prepare(batch)` untimed, then `run(batch)` timed, `samples` times;
// `run` performs `batch` operations. A few untimed warm-up rounds come first.
Timing measure(std::uint64_t samples, std::uint64_t batch,
               const std::function<void(std::uint64_t)>& prepare,
               const std::function<void(std::uint64_t)>& run,
               const std::function<void()>& cleanup = {});

// Two operations timed in alternating samples, so that both see the same
// machine (a busy neighbour or a clock change shifts both, not one).
std::pair<Timing, Timing> measure_interleaved(std::uint64_t samples, std::uint64_t batch,
                                              const std::function<void(std::uint64_t)>& run_a,
                                              const std::function<void(std::uint64_t)>& run_b);

}  // namespace dlpack_usm::bench
