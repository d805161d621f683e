# Installs the build into a scratch prefix and checks that the binary, every
# man page and the conformance suite land where users and man(1) look.
# Arguments: -DBUILD_DIR=... -DSOURCE_DIR=... -DPREFIX=...
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
if(PYTHON)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DLPACK_USM_LIBRARY PYTHONPATH=${package}
                          PYTHONDONTWRITEBYTECODE=1
                          ${PYTHON} -c "import dlpack_usm; print(dlpack_usm.tool_version())"
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "the installed dlpack_usm cannot load its library: ${errors}")
  endif()
endif()
