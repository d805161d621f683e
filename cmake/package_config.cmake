# What a plugin author builds against: dlpack_usm/plugin.h and the tool's own
# C declarations of the DLPack 1.3 ABI (dlpack_usm/dlpack_abi.h), found by
# CMake (find_package(dlpack-usm) gives the imported target
# dlpack-usm::plugin) or by pkg-config (dlpack-usm.pc) alike from the build
# tree, an install prefix (cmake --install, the Debian package) and a pip
# install. Both files find the headers relative to themselves, so one file
# serves every prefix. The interface is header-only: a plugin links its own
# runtime (OpenCL), never the tool.
#
# Set before including: DLPACK_USM_PACKAGE_ROOT, the folder under which the
# install's include/ and share/ lie ("" for the install prefix itself; the
# wheel's data folder for pip).
include(CMakePackageConfigHelpers)

set(DLPACK_USM_PLUGIN_HEADERS include/dlpack_usm/plugin.h include/dlpack_usm/dlpack_abi.h)

# The project's own fixtures build against the same target.
add_library(dlpack_usm_plugin_interface INTERFACE)
target_include_directories(dlpack_usm_plugin_interface INTERFACE ${PROJECT_SOURCE_DIR}/include)
add_library(dlpack-usm::plugin ALIAS dlpack_usm_plugin_interface)

# Writes dlpack-usm-config.cmake, its version file and dlpack-usm.pc into
# `folder`: the config file there finds `include` at CONFIG_TO_INCLUDE from
# itself, the .pc file at PC_TO_INCLUDE from itself.
function(dlpack_usm_package_files folder config_to_include pc_to_include)
  set(DLPACK_USM_CONFIG_TO_INCLUDE ${config_to_include})
  set(DLPACK_USM_PC_TO_INCLUDE ${pc_to_include})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/dlpack-usm-config.cmake.in
                 ${folder}/dlpack-usm-config.cmake @ONLY)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/dlpack-usm.pc.in ${folder}/dlpack-usm.pc @ONLY)
  # A 0.x release promises nothing to 0.y: only the same minor version matches.
  write_basic_package_version_file(${folder}/dlpack-usm-config-version.cmake
    COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
endfunction()

# The build tree: -Ddlpack-usm_DIR=BUILD/package-build or
# PKG_CONFIG_PATH=BUILD/package-build give the source tree's headers.
set(build_folder ${PROJECT_BINARY_DIR}/package-build)
file(RELATIVE_PATH to_include ${build_folder} ${PROJECT_SOURCE_DIR}/include)
dlpack_usm_package_files(${build_folder} ${to_include} ${to_include})

# An install: share/cmake/dlpack-usm and share/pkgconfig beside include/.
set(root ${DLPACK_USM_PACKAGE_ROOT})
if(root)
  string(APPEND root "/")
endif()
set(DLPACK_USM_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/dlpack-usm)
set(DLPACK_USM_PKGCONFIG_DIR ${CMAKE_INSTALL_DATADIR}/pkgconfig)
file(RELATIVE_PATH config_to_include /prefix/${DLPACK_USM_CMAKE_DIR}
     /prefix/${CMAKE_INSTALL_INCLUDEDIR})
file(RELATIVE_PATH pc_to_include /prefix/${DLPACK_USM_PKGCONFIG_DIR}
     /prefix/${CMAKE_INSTALL_INCLUDEDIR})
set(install_folder ${PROJECT_BINARY_DIR}/package)
dlpack_usm_package_files(${install_folder} ${config_to_include} ${pc_to_include})
install(FILES ${DLPACK_USM_PLUGIN_HEADERS} DESTINATION ${root}${CMAKE_INSTALL_INCLUDEDIR}/dlpack_usm)
install(FILES ${install_folder}/dlpack-usm-config.cmake
              ${install_folder}/dlpack-usm-config-version.cmake
        DESTINATION ${root}${DLPACK_USM_CMAKE_DIR})
install(FILES ${install_folder}/dlpack-usm.pc DESTINATION ${root}${DLPACK_USM_PKGCONFIG_DIR})
