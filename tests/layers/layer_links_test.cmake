# The link check of cmake/layers.cmake fails on a call up and passes a tree
# that calls down only (ctest: layer_links): a scratch project of three
# layers, built twice. Run as
#   cmake -DLAYERS_CMAKE=cmake/layers.cmake -DWORK=DIR -P layer_links_test.cmake

function(build_layers name low_source)
  set(root ${WORK}/${name})
  file(REMOVE_RECURSE ${root})
  file(WRITE ${root}/src/common/common.cpp "int common_function() { return 0; }\n")
  file(WRITE ${root}/src/low/low.cpp "${low_source}")
  file(WRITE ${root}/src/high/high.cpp
    "int low_function();\nint high_function() { return 41; }\nint use() { return low_function(); }\n")
  file(WRITE ${root}/CMakeLists.txt "cmake_minimum_required(VERSION 3.22)
project(layer_links CXX)
set(DLPACK_USM_WARNINGS -Wall)
set(DLPACK_USM_UNITY_BUILD OFF)
set(DLPACK_USM_UNITY_BATCH_SIZE 16)
set(DLPACK_USM_PRECOMPILED_HEADERS <string>)
include(${LAYERS_CMAKE})
dlpack_usm_layers(common low high)
dlpack_usm_layer_links(common low high)
")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${root} -B ${root}/build
    RESULT_VARIABLE configured OUTPUT_QUIET ERROR_QUIET)
  if(NOT configured EQUAL 0)
    message(FATAL_ERROR "layer_links: the scratch project ${name} does not configure")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${root}/build
    RESULT_VARIABLE built OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${name}_built ${built} PARENT_SCOPE)
  set(${name}_log "${out}${err}" PARENT_SCOPE)
endfunction()

build_layers(upward "int high_function();\nint low_function() { return high_function() + 1; }\n")
if(upward_built EQUAL 0)
  message(FATAL_ERROR "layer_links: a call from a layer to the layer above it links")
endif()
if(NOT upward_log MATCHES "undefined reference to `high_function\\(\\)'")
  message(FATAL_ERROR "layer_links: the failure does not name the symbol:\n${upward_log}")
endif()

build_layers(downward "int common_function();\nint low_function() { return common_function() + 1; }\n")
if(NOT downward_built EQUAL 0)
  message(FATAL_ERROR "layer_links: calls down only do not link:\n${downward_log}")
endif()
message(STATUS "layer_links: a call up fails the build naming its symbol; calls down link")
