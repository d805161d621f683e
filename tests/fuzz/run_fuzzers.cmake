# ctest driver of one fuzz target: configure and build tests/fuzz with
# clang++ (once; later runs rebuild only what changed), then run the target
# for a bounded time on its committed seed corpus. Where no clang++ can build
# a libFuzzer program the test prints FUZZ-SKIPPED, which ctest reports as
# skipped (SKIP_REGULAR_EXPRESSION), never as passed.
# Arguments: -DSOURCE_DIR=<repo> -DBUILD_DIR=<dir> -DFUZZER=<name> -DSECONDS=<n>
cmake_minimum_required(VERSION 3.22)

find_program(FUZZ_CXX NAMES clang++-14 clang++)
if(NOT FUZZ_CXX)
  message("FUZZ-SKIPPED: no clang++ (install clang-14 and libclang-rt-14-dev)")
  return()
endif()

# A probe tells "this clang has no libFuzzer runtime" (skip) from "the
# targets do not build" (failure).
set(probe_dir ${BUILD_DIR}/probe)
file(MAKE_DIRECTORY ${probe_dir})
file(WRITE ${probe_dir}/probe.cpp
  "#include <cstddef>\n#include <cstdint>\n"
  "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
execute_process(
  COMMAND ${FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${probe_dir}/probe.cpp -o ${probe_dir}/probe
  RESULT_VARIABLE probe_result OUTPUT_QUIET ERROR_VARIABLE probe_error)
if(NOT probe_result EQUAL 0)
  message("FUZZ-SKIPPED: ${FUZZ_CXX} cannot link a libFuzzer program: ${probe_error}")
  return()
endif()

if(NOT EXISTS ${BUILD_DIR}/build/CMakeCache.txt)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/fuzz -B ${BUILD_DIR}/build
            -DCMAKE_CXX_COMPILER=${FUZZ_CXX} -DCMAKE_BUILD_TYPE=
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "configuring the fuzz targets failed")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR}/build -j2 --target ${FUZZER}
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "building ${FUZZER} failed")
endif()

# New inputs go to a scratch corpus (first directory); the committed seeds
# (second) are only read. Crashes land in artifacts/ with the input.
set(scratch ${BUILD_DIR}/corpus-${FUZZER})
file(REMOVE_RECURSE ${scratch})
file(MAKE_DIRECTORY ${scratch} ${BUILD_DIR}/artifacts)
string(REPLACE "_fuzzer" "" corpus_name ${FUZZER})
set(options -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=65536
    -print_final_stats=1 -artifact_prefix=${BUILD_DIR}/artifacts/${FUZZER}-)
# The line reader reads the keys and values of the capsule-file format.
set(dict_name ${corpus_name})
if(corpus_name STREQUAL "line_reader")
  set(dict_name capsule_file)
endif()
if(EXISTS ${SOURCE_DIR}/tests/fuzz/${dict_name}.dict)
  list(APPEND options -dict=${SOURCE_DIR}/tests/fuzz/${dict_name}.dict)
endif()
execute_process(
  COMMAND ${BUILD_DIR}/build/${FUZZER} ${options} ${scratch}
          ${SOURCE_DIR}/tests/fuzz/corpus/${corpus_name}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a failure (exit ${result}); the input is in "
                      "${BUILD_DIR}/artifacts/")
endif()
