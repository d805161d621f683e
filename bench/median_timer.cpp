#include "median_timer.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace dlpack_usm::bench {

Timing measure(std::uint64_t samples, std::uint64_t batch,
               const std::function<void(std::uint64_t)>& prepare,
               const std::function<void(std::uint64_t)>& run,
               const std::function<void()>& cleanup) {
  constexpr std::uint64_t kWarmUp = 3;
  std::vector<double> per_operation;
  per_operation.reserve(samples);
  for (std::uint64_t round = 0; round < kWarmUp + samples; ++round) {
    if (prepare) prepare(batch);
    auto start = std::chrono::steady_clock::now();
    run(batch);
    auto stop = std::chrono::steady_clock::now();
    if (cleanup) cleanup();
    if (round < kWarmUp) continue;
    per_operation.push_back(
        static_cast<double>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count()) /
        static_cast<double>(batch));
  }
  std::sort(per_operation.begin(), per_operation.end());
  Timing timing;
  timing.samples = samples;
  timing.batch = batch;
  timing.min_ns = per_operation.front();
  timing.median_ns = per_operation[per_operation.size() / 2];
  return timing;
}

}  // namespace dlpack_usm::bench
