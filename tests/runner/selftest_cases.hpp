// Cases that misbehave on purpose, built into the test suite only: they
// prove the runner survives crashes, aborts, hangs and flakiness. The shipped
// conformance vectors never contain such cases.
#pragma once

#include "suite/model/case.hpp"

namespace dlpack_usm::suite::testing {

// Cases: selftest/pass, fail, error, crash (SIGSEGV), abort, exit (exits 7
// without a result), hang, hang-silent (closes its output, then hangs),
// noisy (chatter on stdout before its result), flaky (fails on the first run
// in a state directory, passes on the second; the directory is named by
// DLPACK_USM_SELFTEST_STATE), state (fails unless it is the first case its
// process runs), forge-fd3, forge-channel and fork-carry-on (pass results
// forged on descriptor 3, on the sockets of the process, and by a fork of
// the worker that carries on; each case's real result differs).
CaseSources selftest_sources();

}  // namespace dlpack_usm::suite::testing
