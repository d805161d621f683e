#include "capsule/evaluated_tensors.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace dlpack_usm::capsule {
namespace {

// The batches in flight share about a MiB of text and 1280 lines whatever
// the number of workers, so that memory stays bounded on many cores, while
// on few a batch is large enough that handing it between threads costs
// little (256 lines on 2 cores). Lines are counted as well as bytes: a
// tensor with findings keeps them in its batch until it is printed.
constexpr std::size_t kBytesInFlight = std::size_t{1} << 20;
constexpr std::size_t kLinesInFlight = 1280;
constexpr std::size_t kLeastBatchBytes = std::size_t{64} << 10;
constexpr std::size_t kLeastBatchLines = 64;
constexpr std::size_t kMostWorkers = 8;

// Lines of a file, one after another, and what judging them gave.
struct Batch {
  struct Slot {
    std::size_t begin = 0;  // in text
    std::size_t size = 0;
    std::size_t number = 0;
    std::size_t column = 1;
    std::size_t index = 0;
  };
  std::string text;
  std::vector<Slot> slots;
  // Per slot; their buffers are kept when the batch is used again.
  std::vector<std::string> origins;
  std::vector<std::vector<rules::Finding>> findings;
  std::size_t judged = 0;  // slots judged before a problem, if any
  std::exception_ptr problem;
  bool ready = false;

  bool full(std::size_t most_lines, std::size_t most_bytes) const {
    return slots.size() >= most_lines || text.size() >= most_bytes;
  }
  void clear() {
    text.clear();
    slots.clear();
    judged = 0;
    problem = nullptr;
    ready = false;
  }
};

// What a worker keeps from batch to batch.
struct Judge {
  TensorLineReader reader;
  facts::TensorFacts facts;
  rules::Evaluation evaluation;
};

// Reads and evaluates every line of `batch`, stopping at the first problem,
// which the batch keeps for the reading thread to raise in file order.
void judge_batch(const std::string& file, Batch& batch, Judge& judge) {
  std::size_t count = batch.slots.size();
  if (batch.origins.size() < count) batch.origins.resize(count);
  if (batch.findings.size() < count) batch.findings.resize(count);
  try {
    for (std::size_t i = 0; i < count; ++i) {
      const Batch::Slot& slot = batch.slots[i];
      JsonLine line{std::string_view(batch.text).substr(slot.begin, slot.size), slot.number,
                    slot.column, slot.index};
      read_json_line(line, file, judge.reader, LineReading::fast, judge.facts);
      rules::evaluate_into(judge.facts, judge.evaluation);
      // Swapped, not copied: both buffers are kept for the next lines.
      std::swap(batch.origins[i], judge.facts.origin);
      std::swap(batch.findings[i], judge.evaluation.findings);
      ++batch.judged;
    }
  } catch (...) {
    batch.problem = std::current_exception();
  }
}

// The consumer of a file's JSON lines: batches go to the workers as they
// fill and come back, judged, to `handler` in file order on the reading
// thread; at most a few are in flight, the reading waits for the oldest.
class Judges final : public JsonLineConsumer {
 public:
  Judges(const std::string& file, const EvaluatedTensorHandler& handler, std::size_t workers)
      : file_(file),
        handler_(handler),
        workers_(workers),
        most_batches_(2 * workers + 1),
        batch_lines_(std::max(kLeastBatchLines, kLinesInFlight / most_batches_)),
        batch_bytes_(std::max(kLeastBatchBytes, kBytesInFlight / most_batches_)) {}
  Judges(const Judges&) = delete;
  Judges& operator=(const Judges&) = delete;

  ~Judges() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  void take(const JsonLine& line) override {
    if (current_ == nullptr) current_ = free_batch();
    current_->slots.push_back(
        {current_->text.size(), line.text.size(), line.number, line.column, line.index});
    current_->text.append(line.text);
    if (current_->full(batch_lines_, batch_bytes_)) submit();
  }

  void finish() override {
    // After a problem, what follows it in the file is not handed over.
    if (failed_) return;
    if (current_ != nullptr && !current_->slots.empty()) submit();
    while (!in_flight_.empty()) hand_over_oldest();
  }

 private:
  Batch* free_batch() {
    if (spare_.empty() && batches_.size() < most_batches_) {
      batches_.push_back(std::make_unique<Batch>());
      return batches_.back().get();
    }
    while (spare_.empty()) hand_over_oldest();
    Batch* batch = spare_.back();
    spare_.pop_back();
    return batch;
  }

  void submit() {
    // The line reader's parser reads a little past each line.
    current_->text.append(kLinePadding, ' ');
    if (threads_.empty()) {
      for (std::size_t i = 0; i < workers_; ++i) threads_.emplace_back([this] { work(); });
    }
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(current_);
    }
    work_ready_.notify_one();
    in_flight_.push_back(current_);
    current_ = nullptr;
  }

  void hand_over_oldest() {
    Batch* batch = in_flight_.front();
    // While it is judged, this thread judges what no worker has taken yet:
    // it has a core of its own, which waiting would leave idle.
    while (true) {
      Batch* waiting = nullptr;
      {
        std::unique_lock lock(mutex_);
        if (batch->ready) break;
        if (queue_.empty()) {
          batch_ready_.wait(lock, [batch] { return batch->ready; });
          break;
        }
        waiting = queue_.front();
        queue_.pop_front();
      }
      judge_here(*waiting);
    }
    in_flight_.pop_front();
    for (std::size_t i = 0; i < batch->judged; ++i) {
      const Batch::Slot& slot = batch->slots[i];
      TensorPlace place{slot.index, {}, slot.number, {}};
      handler_({batch->origins[i], batch->findings[i], place});
    }
    std::exception_ptr problem = batch->problem;
    batch->clear();
    spare_.push_back(batch);
    if (problem) {
      failed_ = true;
      std::rethrow_exception(problem);
    }
  }

  // A batch judged on the reading thread, with a Judge of its own.
  void judge_here(Batch& batch) {
    if (!here_) here_ = std::make_unique<Judge>();
    judge_batch(file_, batch, *here_);
    std::lock_guard lock(mutex_);
    batch.ready = true;
  }

  void work() {
    Judge judge;
    while (true) {
      Batch* batch = nullptr;
      {
        std::unique_lock lock(mutex_);
        work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        batch = queue_.front();
        queue_.pop_front();
      }
      judge_batch(file_, *batch, judge);
      {
        std::lock_guard lock(mutex_);
        batch->ready = true;
      }
      batch_ready_.notify_all();
    }
  }

  const std::string& file_;
  const EvaluatedTensorHandler& handler_;
  std::size_t workers_;
  std::size_t most_batches_;
  std::size_t batch_lines_;
  std::size_t batch_bytes_;
  std::vector<std::unique_ptr<Batch>> batches_;  // every batch made
  std::vector<Batch*> spare_;
  Batch* current_ = nullptr;      // being filled
  std::deque<Batch*> in_flight_;  // submitted, in file order
  bool failed_ = false;

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable batch_ready_;
  std::deque<Batch*> queue_;  // submitted, no worker yet
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::unique_ptr<Judge> here_;  // the reading thread's, made when first needed
};

// The reading thread judges too while it waits for a batch: with it, one
// thread a core.
std::size_t default_workers() {
  std::size_t cores = std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(cores > 1 ? cores - 1 : 1, 1, kMostWorkers);
}

}  // namespace

void for_each_evaluated_tensor(const std::filesystem::path& path,
                               const EvaluatedTensorHandler& handler, bool member_lines,
                               std::size_t workers) {
  // A tensor object or an array of them: judged here, tensor by tensor.
  rules::Evaluation evaluation;
  PlacedTensorHandler judge_here = [&](facts::TensorFacts&& tensor, const TensorPlace& place) {
    rules::evaluate_into(tensor, evaluation);
    handler({tensor.origin, evaluation.findings, place});
  };
  std::string file = path.string();
  Judges judges(file, handler, workers == 0 ? default_workers() : workers);
  for_each_placed_tensor(path, judge_here, judges, member_lines);
}

}  // namespace dlpack_usm::capsule
