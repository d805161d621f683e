// The standalone snippet a crash report of a Python case gives
// (issue 35): a shell here-document that runs the consumer on the tensor
// the case offered in a plain interpreter, with no runner, worker or
// containment around it (dlpack_usm.repro), so that the crash happens where
// a debugger or faulthandler sees it.
#pragma once

#include <cstdint>
#include <string>

#include "suite/cases/python/python_target.hpp"

namespace dlpack_usm::suite {

// `text` as a Python string literal in single quotes, every byte outside
// printable ASCII escaped: an EXPR cannot end the literal or the
// here-document.
std::string python_literal(const std::string& text);

// The snippet of consumer case `cell` offered in `memory` ("cpu", "host",
// "device", "shared") on root device `device_id`.
std::string consumer_snippet(const PythonTarget& target, const std::string& cell,
                             const std::string& memory, std::int32_t device_id);

// The snippet of a handoff case: the producer's tensor (EXPR's, or the
// profile cell `cell` made on the producer's device `device_index`) given
// to the consumer as `remedy` gives it.
std::string handoff_snippet(const PythonTarget& target, const std::string& remedy,
                            const std::string& cell, int device_index);

// The snippet of producer step `step` ("versioned", "capsule", ...): EXPR's
// capsule read and the step asked, as the worker asks, its findings printed.
std::string producer_snippet(const PythonTarget& target, const std::string& step);

}  // namespace dlpack_usm::suite
