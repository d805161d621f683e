// The status line `check` prints in logs, and when it is due.
#include <gtest/gtest.h>

#include "suite/gate/run_status.hpp"

namespace dlpack_usm::suite {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(RunStatus, TheLineCountsFinishedCasesByOutcome) {
  RunStatus status;
  status.total = 493;
  for (int i = 0; i < 205; ++i) status.count({"a", Outcome::pass});
  for (int i = 0; i < 3; ++i) status.count({"b", Outcome::fail});
  status.count({"c", Outcome::crash});
  for (int i = 0; i < 3; ++i) status.count({"d", Outcome::timeout});
  status.elapsed = seconds(62);
  EXPECT_EQ(status_line(status), "[212/493] pass 205 fail 3 crash 1 timeout 3 \u00b7 1:02 elapsed");
}

TEST(RunStatus, OtherOutcomesShowWhereACaseHadThem) {
  RunStatus status;
  status.total = 4;
  status.count({"a", Outcome::warn});
  status.count({"b", Outcome::not_supported});
  status.count({"c", Outcome::not_run});
  EXPECT_EQ(status_line(status),
            "[3/4] pass 0 warn 1 fail 0 not_supported 1 crash 0 timeout 0 not_run 1 \u00b7 0:00 "
            "elapsed");
}

TEST(RunStatus, ElapsedTimeShowsHoursOnceThereAreAny) {
  EXPECT_EQ(elapsed_text(milliseconds(999)), "0:00");
  EXPECT_EQ(elapsed_text(seconds(59 * 60 + 59)), "59:59");
  EXPECT_EQ(elapsed_text(seconds(3600 + 62)), "1:01:02");
  EXPECT_EQ(elapsed_text(seconds(-5)), "0:00");
}

TEST(StatusSchedule, DueOncePerIntervalAndNeverWithoutOne) {
  StatusSchedule schedule(seconds(30));
  EXPECT_FALSE(schedule.due(seconds(29)));
  EXPECT_TRUE(schedule.due(seconds(30)));
  EXPECT_FALSE(schedule.due(seconds(31)));
  // A late turn gives one line, and the next comes on the interval's beat.
  EXPECT_TRUE(schedule.due(seconds(125)));
  EXPECT_FALSE(schedule.due(seconds(149)));
  EXPECT_TRUE(schedule.due(seconds(150)));
  StatusSchedule never(seconds(0));
  EXPECT_FALSE(never.due(seconds(1000)));
}

}  // namespace
}  // namespace dlpack_usm::suite
