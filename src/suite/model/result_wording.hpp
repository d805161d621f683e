// Words the runner wraps a case's message in when a re-run changed what it
// says (suite/runner/runner.cpp), which the summary's grouping reads back
// (report/failure_groups.cpp) to see one bug in many cases: kept here, in
// one place, so that the two cannot drift apart.
#pragma once

#include <string_view>

namespace dlpack_usm::suite {

// "MESSAGE (without its re-run: REASON)": a failure whose re-run a stop
// (--max-consecutive-hangs, --max-failures) cut short.
inline constexpr std::string_view kCutReRunOpening = " (without its re-run: ";

// "... a state bug (... in a fresh process it ended OUTCOME; ...)": how the
// case ended when re-run alone.
inline constexpr std::string_view kFreshProcessEnded = "in a fresh process it ended ";

}  // namespace dlpack_usm::suite
