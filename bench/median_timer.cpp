#include "median_timer.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace dlpack_usm::bench {

namespace {

constexpr std::uint64_t kWarmUp = 3;

double time_batch(const std::function<void(std::uint64_t)>& run, std::uint64_t batch) {
  auto start = std::chrono::steady_clock::now();
  run(batch);
  auto stop = std::chrono::steady_clock::now();
  return static_cast<double>(
             std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count()) /
         static_cast<double>(batch);
}

Timing summarize(std::vector<double> per_operation, std::uint64_t batch) {
  std::sort(per_operation.begin(), per_operation.end());
  Timing timing;
  timing.samples = per_operation.size();
  timing.batch = batch;
  timing.min_ns = per_operation.front();
  timing.median_ns = per_operation[per_operation.size() / 2];
  return timing;
}

}  // namespace

Timing measure(std::uint64_t samples, std::uint64_t batch,
               const std::function<void(std::uint64_t)>& prepare,
               const std::function<void(std::uint64_t)>& run,
               const std::function<void()>& cleanup) {
  std::vector<double> per_operation;
  per_operation.reserve(samples);
  for (std::uint64_t round = 0; round < kWarmUp + samples; ++round) {
    if (prepare) prepare(batch);
    double sample = time_batch(run, batch);
    if (cleanup) cleanup();
    if (round >= kWarmUp) per_operation.push_back(sample);
  }
  return summarize(std::move(per_operation), batch);
}

std::pair<Timing, Timing> measure_interleaved(std::uint64_t samples, std::uint64_t batch,
                                              const std::function<void(std::uint64_t)>& run_a,
                                              const std::function<void(std::uint64_t)>& run_b) {
  std::vector<double> a, b;
  a.reserve(samples);
  b.reserve(samples);
  for (std::uint64_t round = 0; round < kWarmUp + samples; ++round) {
    double sample_a = time_batch(run_a, batch);
    double sample_b = time_batch(run_b, batch);
    if (round < kWarmUp) continue;
    a.push_back(sample_a);
    b.push_back(sample_b);
  }
  return {summarize(std::move(a), batch), summarize(std::move(b), batch)};
}

}  // namespace dlpack_usm::bench
