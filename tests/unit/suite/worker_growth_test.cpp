// When a run adds a worker that takes more cases: two always, more only
// once the run has figures and the cases left pay for another start.
#include <gtest/gtest.h>

#include "suite/runner/worker_growth.hpp"

namespace dlpack_usm::suite {
namespace {

TEST(WorkerGrowth, TwoWorkersStartBeforeAnyFigureAndNoMore) {
  WorkerFigures figures;
  EXPECT_TRUE(figures.worth_another(0, 1000));
  EXPECT_TRUE(figures.worth_another(1, 1000));
  EXPECT_FALSE(figures.worth_another(2, 1000));
  figures.worker_ready(300);
  EXPECT_FALSE(figures.worth_another(2, 1000)) << "no case finished yet";
}

// The GPU machine's default suite: 0.3 s starts, 0.2 ms cases, 550 left:
// 55 ms for each of two workers, so no third. Cases of 10 ms: 2.75 s each,
// so more start, until each would have less than a start's worth.
TEST(WorkerGrowth, AnotherStartsOnlyWhereTheCasesLeftOutlastItsStart) {
  WorkerFigures quick;
  quick.worker_ready(300);
  quick.case_finished(0.2);
  EXPECT_FALSE(quick.worth_another(2, 550));

  WorkerFigures slow;
  slow.worker_ready(300);
  slow.case_finished(10);
  EXPECT_TRUE(slow.worth_another(2, 550));
  EXPECT_TRUE(slow.worth_another(18, 550));   // 305 ms each
  EXPECT_FALSE(slow.worth_another(19, 550));  // 289 ms each
}

TEST(WorkerGrowth, FiguresAreMeansOfWhatWasSeen) {
  WorkerFigures figures;
  figures.worker_ready(100);
  figures.worker_ready(300);  // a start of 200 ms on average
  figures.case_finished(1);
  figures.case_finished(3);                     // cases of 2 ms
  EXPECT_TRUE(figures.worth_another(2, 201));   // 201 ms each
  EXPECT_FALSE(figures.worth_another(2, 200));  // 200 ms each: no gain
}

}  // namespace
}  // namespace dlpack_usm::suite
