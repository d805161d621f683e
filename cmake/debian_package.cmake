# `cpack -G DEB` in the build tree makes dlpack-usm_VERSION_ARCH.deb from what
# `cmake --install` lays out, installed under /usr.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dlpack-usm)
set(CPACK_PACKAGE_VENDOR "The dlpack-usm developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "conformance tool for DLPack exchange of SYCL USM allocations (kDLOneAPI)")
set(CPACK_PACKAGE_DESCRIPTION
  "dlpack-usm lists devices with their kDLOneAPI device ids and USM capabilities, \
checks DLPack capsules field by field against a rule catalog, exchanges real USM \
allocations through DLPack, and puts producer and consumer libraries under test \
as a CI gate (exit code, JSON report, JUnit).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Debug information stays in the build tree: stripped, the package is a
# tenth of the size.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The dlpack-usm developers")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# dpkg-shlibdeps derives the libraries the binaries link (libc6, libstdc++6,
# libgcc-s1, libfmt9). The OpenCL ICD loader is opened with
# dlopen, so dpkg-shlibdeps cannot see it: it is named here. A device runtime (any
# opencl-icd) and python3 (for the bridge's package) are what makes the tool
# useful, not what makes it run.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "opencl-icd, python3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pocl-opencl-icd, pkg-config, cmake")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
include(CPack)
