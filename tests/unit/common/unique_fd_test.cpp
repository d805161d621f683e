// A descriptor has one owner, which closes it exactly once: on destruction,
// on reset, and when another descriptor is moved into it; moving and
// releasing hand it on open.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "common/unique_fd.hpp"

namespace dlpack_usm {
namespace {

bool is_open(int fd) {
  return fcntl(fd, F_GETFD) != -1;
}

int open_null() {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT_GE(fd, 0);
  return fd;
}

TEST(UniqueFd, ClosesItsDescriptorWhenDestroyed) {
  int raw = open_null();
  {
    UniqueFd fd(raw);
    EXPECT_TRUE(fd);
    EXPECT_EQ(fd.get(), raw);
  }
  EXPECT_FALSE(is_open(raw));
  EXPECT_EQ(errno, EBADF);
}

TEST(UniqueFd, EmptyHoldsNothing) {
  UniqueFd fd;
  EXPECT_FALSE(fd);
  EXPECT_EQ(fd.get(), -1);
  fd.reset();
  EXPECT_FALSE(fd);
}

TEST(UniqueFd, MovingHandsTheDescriptorOnOpen) {
  int raw = open_null();
  UniqueFd first(raw);
  UniqueFd second(std::move(first));
  EXPECT_FALSE(first);
  EXPECT_EQ(second.get(), raw);
  EXPECT_TRUE(is_open(raw));
  UniqueFd third;
  third = std::move(second);
  EXPECT_EQ(third.get(), raw);
  EXPECT_TRUE(is_open(raw));
}

TEST(UniqueFd, MoveAssignmentClosesWhatItHeld) {
  int old_raw = open_null();
  int new_raw = open_null();
  UniqueFd target(old_raw);
  target = UniqueFd(new_raw);
  EXPECT_FALSE(is_open(old_raw));
  EXPECT_TRUE(is_open(new_raw));
}

TEST(UniqueFd, ResetClosesAndHoldsTheNewOne) {
  int first = open_null();
  int second = open_null();
  UniqueFd fd(first);
  fd.reset(second);
  EXPECT_FALSE(is_open(first));
  EXPECT_EQ(fd.get(), second);
  // Resetting to the descriptor held keeps it open.
  fd.reset(second);
  EXPECT_TRUE(is_open(second));
  fd.reset();
  EXPECT_FALSE(is_open(second));
}

TEST(UniqueFd, ReleaseGivesItUpOpen) {
  int raw = open_null();
  {
    UniqueFd fd(raw);
    EXPECT_EQ(fd.release(), raw);
    EXPECT_FALSE(fd);
  }
  EXPECT_TRUE(is_open(raw));
  close(raw);
}

TEST(OpenPipe, BothEndsOwnedAndConnected) {
  UniqueFd read_end, write_end;
  ASSERT_TRUE(open_pipe(read_end, write_end, O_CLOEXEC));
  EXPECT_NE(fcntl(read_end.get(), F_GETFD) & FD_CLOEXEC, 0);
  char sent = 'x';
  char received = 0;
  ASSERT_EQ(write(write_end.get(), &sent, 1), 1);
  ASSERT_EQ(read(read_end.get(), &received, 1), 1);
  EXPECT_EQ(received, 'x');
  // The writer gone, the reader sees end of file.
  write_end.reset();
  EXPECT_EQ(read(read_end.get(), &received, 1), 0);
}

TEST(OpenPipe, FailureLeavesTheOwnersAsTheyWere) {
  UniqueFd read_end, write_end;
  // An invalid flag makes pipe2 fail with EINVAL.
  EXPECT_FALSE(open_pipe(read_end, write_end, -1));
  EXPECT_EQ(errno, EINVAL);
  EXPECT_FALSE(read_end);
  EXPECT_FALSE(write_end);
}

}  // namespace
}  // namespace dlpack_usm
