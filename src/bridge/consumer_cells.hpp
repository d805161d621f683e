// The consumer matrix of `check --consumer` as the Python package sees it:
// the cells (matrix/consumer_matrix.hpp) and the root devices with USM of the
// bridge's runtime, as one JSON document, so that `python3 -m dlpack_usm
// consume` offers exactly what the command line offers.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

// consumer_matrix.hpp names dlpack::Release without including its header.
#include "dlpack/names.hpp"
#include "matrix/consumer_matrix.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::bridge {

// The runtime the consumer offers use: what --runtime auto chooses for a
// consumer that takes SYCL's handles (runtime/selection.hpp), so that a SYCL
// consumer in the same process shares its default contexts: SYCL where
// dpctl's C interface loads, OpenCL otherwise; the runtime of the plugin
// host table where a C program asked for one. `name` is "sycl" or "opencl".
runtime::Runtime& offer_runtime(std::string* name = nullptr);

// {"runtime", "devices": [{"name", "device_id", "kinds", "first_kind"}],
//  "cells": [{"name", "axis", "valid", "dtype", "shape", "strides",
//             "byte_offset", "version", "flags", "features",
//             "features_by_kind", "twin"}], "classes": [...]}
nlohmann::ordered_json consumer_matrix_json();

// The cell called `name` (valid or invalid, or the compact twin
// "<cell>~compact" of a valid one); Error(usage) for no such cell. `valid`
// tells which.
matrix::OfferedShape find_cell(const std::string& name, bool& valid);

// The verdict on one observation of a consumer (bridge.h,
// dlpack_usm_bridge_consumer_verdict); Error(usage) when it is malformed.
nlohmann::ordered_json consumer_verdict_json(const std::string& observation);

// The whole rule catalog, as `dlpack-usm rules --json` prints it.
nlohmann::ordered_json rules_json();

}  // namespace dlpack_usm::bridge
