// What "no allocation per tensor" means for capsule check of a capture: once
// the buffers have grown, reading a JSON line's tensor into the reused Facts
// and evaluating the rule catalog into the reused Evaluation allocate
// nothing for a tensor without findings. Counted by replacing the global
// operator new for this binary (it forwards to malloc, counting only while
// a test asks).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "capsule/tensor_line_reader.hpp"
#include "rules/rule.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<std::size_t> g_allocations{0};
// Where the counter's own test keeps what it allocates, so that the
// compiler cannot leave the allocation out.
std::vector<int>* g_kept = nullptr;

void* counted_allocation(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t size) {
  return counted_allocation(size);
}
void* operator new[](std::size_t size) {
  return counted_allocation(size);
}
// The nothrow forms too (std::stable_sort's buffer): each
// form of new this binary uses must come from malloc, as its delete frees,
// or AddressSanitizer reports an alloc-dealloc mismatch.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* memory) noexcept {
  std::free(memory);
}
void operator delete[](void* memory) noexcept {
  std::free(memory);
}
void operator delete(void* memory, std::size_t) noexcept {
  std::free(memory);
}
void operator delete[](void* memory, std::size_t) noexcept {
  std::free(memory);
}

namespace dlpack_usm::capsule {
namespace {

// Tensors no rule has anything to say about, of every dtype width: host
// memory 256-byte aligned, and CUDA and oneAPI device memory with what
// their runtimes said (owner names longer than a short string's buffer);
// each with a recorded origin.
std::string clean_line(int i) {
  const char* dtypes[] = {"float32", "int64", "uint8", "bool", "bfloat16", "complex128"};
  int ndim = 1 + i % 4;
  std::vector<int> shape(static_cast<std::size_t>(ndim), 2 + i % 3);
  std::vector<long> strides(shape.size());
  long running = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = running;
    running *= shape[k];
  }
  unsigned long data = 0x7f0000000000UL + static_cast<unsigned long>(i) * 4096;
  const char* device[] = {R"("kDLCPU", "device_id": 0)", R"("kDLCUDA", "device_id": 1)",
                          R"("kDLOneAPI", "device_id": 0)"};
  std::string runtime[] = {
      "",
      fmt::format(R"x(, "runtime": {{"owner_device": "cuda:1 NVIDIA H200 (0000:00:07.0)", )x"
                  R"("alloc_base": "{:#x}", "alloc_size": 4096, "cuda_memory_type": "device", )"
                  R"("cuda_ordinal": 1, "cuda_device_count": 2}})",
                  data),
      fmt::format(R"(, "runtime": {{"usm_kind": "device", "owner_root_index": 0, )"
                  R"("owner_device": "opencl:cpu:0 of a long name", "root_device_count": 2, )"
                  R"("default_context": true, "alloc_base": "{:#x}", "alloc_size": 4096}})",
                  data)};
  return fmt::format(
      R"({{"version": {{"major": 1, "minor": 3}}, "flags": 0, "deleter": true, )"
      R"("dl_tensor": {{"data": "{:#x}", "device": {{"device_type": {}}}, "ndim": {}, )"
      R"("dtype": "{}", "shape": [{}], "strides": [{}], "byte_offset": 0}}{}, )"
      R"("origin": "a training step's parameter number {}"}})",
      data, device[i % 3], ndim, dtypes[i % 6], fmt::join(shape, ", "), fmt::join(strides, ", "),
      runtime[i % 3], i);
}

std::vector<std::string> clean_lines() {
  std::vector<std::string> lines;
  for (int i = 0; i < 36; ++i) {
    lines.push_back(clean_line(i));
    lines.back().reserve(lines.back().size() + 64);
  }
  return lines;
}

// Allocations made by `step` while counting.
template <typename Step>
std::size_t allocations_of(Step&& step) {
  g_allocations = 0;
  g_counting = true;
  step();
  g_counting = false;
  return g_allocations.load();
}

TEST(StreamAllocations, ATensorWithoutFindingsCostsNoAllocation) {
  std::vector<std::string> lines = clean_lines();
  TensorLineReader reader;
  facts::TensorFacts facts;
  rules::Evaluation evaluation;
  std::string origin = "capture.jsonl#1000000";
  std::size_t reading = 0;
  std::size_t evaluating = 0;
  for (int pass = 0; pass < 2; ++pass) {
    // The first pass grows the buffers to the largest tensor.
    reading = 0;
    evaluating = 0;
    for (const std::string& line : lines) {
      bool read = false;
      reading += allocations_of([&] { read = reader.read(line, origin, facts); });
      ASSERT_TRUE(read) << line;
      evaluating += allocations_of([&] { rules::evaluate_into(facts, evaluation); });
      ASSERT_TRUE(evaluation.findings.empty())
          << line << ": " << evaluation.findings.front().rule_id;
    }
  }
  EXPECT_EQ(reading, 0U) << "reading " << lines.size() << " tensors";
  EXPECT_EQ(evaluating, 0U) << "evaluating " << lines.size() << " tensors";
}

// The counter counts: the test above cannot pass for want of it.
TEST(StreamAllocations, TheCounterSeesAnAllocation) {
  g_allocations = 0;
  g_counting = true;
  g_kept = new std::vector<int>(100);
  g_counting = false;
  delete g_kept;
  EXPECT_GE(g_allocations.load(), 1U);
}

}  // namespace
}  // namespace dlpack_usm::capsule
