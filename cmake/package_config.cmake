# What a plugin author builds against: the installed dlpack_usm/plugin.h,
# found by CMake (find_package(dlpack-usm) gives the imported target
# dlpack-usm::plugin) or by pkg-config (dlpack-usm.pc). The interface is
# header-only: a plugin links its own runtime (OpenCL), never the tool.
include(CMakePackageConfigHelpers)

add_library(dlpack_usm_plugin_interface INTERFACE)
target_include_directories(dlpack_usm_plugin_interface INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(dlpack_usm_plugin_interface PROPERTIES EXPORT_NAME plugin)
add_library(dlpack-usm::plugin ALIAS dlpack_usm_plugin_interface)
install(TARGETS dlpack_usm_plugin_interface EXPORT dlpack-usm-targets)

set(DLPACK_USM_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/dlpack-usm)
install(EXPORT dlpack-usm-targets NAMESPACE dlpack-usm:: DESTINATION ${DLPACK_USM_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dlpack-usm-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/package/dlpack-usm-config.cmake
  INSTALL_DESTINATION ${DLPACK_USM_CMAKE_DIR})
# A 0.x release promises nothing to 0.y: only the same minor version matches.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/package/dlpack-usm-config-version.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/dlpack-usm-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/package/dlpack-usm-config-version.cmake
  DESTINATION ${DLPACK_USM_CMAKE_DIR})

# The .pc file finds the headers relative to itself, so one file serves every
# prefix: /usr from the Debian package, /usr/local, or a scratch root.
set(DLPACK_USM_PKGCONFIG_DIR ${CMAKE_INSTALL_DATADIR}/pkgconfig)
file(RELATIVE_PATH DLPACK_USM_PKGCONFIG_TO_PREFIX
  /prefix/${DLPACK_USM_PKGCONFIG_DIR} /prefix)
configure_file(${CMAKE_CURRENT_LIST_DIR}/dlpack-usm.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/package/dlpack-usm.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/dlpack-usm.pc DESTINATION ${DLPACK_USM_PKGCONFIG_DIR})
