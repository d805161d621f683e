# Installs the build into a scratch prefix and checks that the binary, every
# man page and the conformance suite land where users and man(1) look, and
# that a C plugin's crash snippet from the installed tool builds the
# installed reproduction program.
# Arguments: -DBUILD_DIR=... -DSOURCE_DIR=... -DPREFIX=... -DPRODUCER=(the
# fixture producer) [-DPYTHON=...]
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
if(NOT EXISTS "${PREFIX}/bin/dlpack-usm")
  message(FATAL_ERROR "bin/dlpack-usm was not installed")
endif()
file(GLOB pages RELATIVE "${SOURCE_DIR}/man" "${SOURCE_DIR}/man/*.[17]")
list(LENGTH pages count)
if(count EQUAL 0)
  message(FATAL_ERROR "no man pages in ${SOURCE_DIR}/man")
endif()
foreach(page IN LISTS pages)
  string(REGEX REPLACE ".*\\.([17])$" "\\1" section "${page}")
  if(NOT EXISTS "${PREFIX}/share/man/man${section}/${page}")
    message(FATAL_ERROR "${page} was not installed in share/man/man${section}")
  endif()
endforeach()
# A library under test builds against the installed plugin interface.
if(NOT EXISTS "${PREFIX}/include/dlpack_usm/plugin.h")
  message(FATAL_ERROR "include/dlpack_usm/plugin.h was not installed")
endif()
if(NOT IS_DIRECTORY "${PREFIX}/share/dlpack-usm/conformance")
  message(FATAL_ERROR "the conformance suite was not installed")
endif()
# The bridge: library, header, and a Python package that finds the installed
# library by itself (no DLPACK_USM_LIBRARY).
file(GLOB libraries "${PREFIX}/lib*/libdlpack_usm.so.1" "${PREFIX}/lib*/*/libdlpack_usm.so.1")
if(NOT libraries)
  message(FATAL_ERROR "libdlpack_usm.so.1 was not installed under ${PREFIX}/lib")
endif()
if(NOT EXISTS "${PREFIX}/include/dlpack_usm/bridge.h")
  message(FATAL_ERROR "include/dlpack_usm/bridge.h was not installed")
endif()
set(package "${PREFIX}/share/dlpack-usm/python")
if(NOT EXISTS "${package}/dlpack_usm/__init__.py" OR NOT EXISTS "${package}/dlpack_usm/_location.py")
  message(FATAL_ERROR "the Python package was not installed in share/dlpack-usm/python")
endif()
foreach(subpackage _bridge producer consumer)
  if(NOT EXISTS "${package}/dlpack_usm/${subpackage}/__init__.py")
    message(FATAL_ERROR "the Python package was installed without its sub-package ${subpackage}/")
  endif()
endforeach()
if(PYTHON)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DLPACK_USM_LIBRARY PYTHONPATH=${package}
                          PYTHONDONTWRITEBYTECODE=1
                          ${PYTHON} -c "import dlpack_usm; print(dlpack_usm.tool_version())"
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "the installed dlpack_usm cannot load its library: ${errors}")
  endif()
endif()

# The program a C plugin's crash snippet builds, and the snippet the
# installed tool gives: it names the installed program, headers and library
# (not the source or build tree's, nor DLPACK_USM_LIBRARY's), and it builds
# and runs as pasted.
set(repro "${PREFIX}/share/dlpack-usm/plugin_repro.c")
if(NOT EXISTS "${repro}")
  message(FATAL_ERROR "share/dlpack-usm/plugin_repro.c was not installed")
endif()
if(NOT PRODUCER)
  return()
endif()
set(work "${PREFIX}-snippet")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DLPACK_USM_LIBRARY
                        "${PREFIX}/bin/dlpack-usm" check --producer "${PRODUCER}"
                        --filter "producer/*/device/float32/C/1.3" --runtime opencl --allow-empty
                        --report "${work}/report.json"
                WORKING_DIRECTORY "${work}" RESULT_VARIABLE result OUTPUT_VARIABLE output
                ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the installed dlpack-usm check --producer failed (${result}): ${output}${errors}")
endif()
file(READ "${work}/report.json" report)
string(JSON count LENGTH "${report}" results)
set(snippet "")
if(count GREATER 0)
  math(EXPR last "${count} - 1")
  foreach(index RANGE ${last})
    string(JSON snippet ERROR_VARIABLE missing GET "${report}" results ${index} snippet)
    if(NOT missing AND snippet)
      break()
    endif()
    set(snippet "")
  endforeach()
endif()
if(snippet STREQUAL "")
  if("$ENV{DLPACK_USM_REQUIRE_USM}" STREQUAL "1")
    message(FATAL_ERROR "DLPACK_USM_REQUIRE_USM=1 but no producer case of the installed tool ran")
  endif()
  message(STATUS "no device with USM here: the installed tool's snippet is not checked")
  return()
endif()
list(GET libraries 0 library)
foreach(installed "${repro}" "-I${PREFIX}/include" "${library}")
  string(FIND "${snippet}" "${installed}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the installed tool's snippet does not name ${installed}:\n${snippet}")
  endif()
endforeach()
file(WRITE "${work}/snippet.sh" "${snippet}\n")
execute_process(COMMAND sh snippet.sh WORKING_DIRECTORY "${work}" RESULT_VARIABLE result
                OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT output MATCHES "produce returned 0")
  message(FATAL_ERROR "the installed tool's snippet did not run clean (${result}):\n${snippet}\n"
                      "${output}${errors}")
endif()
