# install() rules and the Debian package (CPack).
#
# Layout under the prefix (/usr for the package):
#   bin/cudagraph-tidy                      the driver; it needs nothing else
#                                           of ours at run time (the API model
#                                           is compiled in)
#   lib/cudagraph-tidy/CudaGraphTidy.so     the plugin for clang-tidy-22 -load
#   lib/cmake/cudagraph-tidy/               the CMake package (find_package,
#                                           cudagraph_tidy(TARGET ...))
#   share/doc/cudagraph-tidy/               README, docs/, the API model JSON
#                                           (a template for ApiModelFiles)
#                                           and the examples
#
# Installed binaries have no run path (the build tree's points at
# /usr/lib/llvm-22/lib): Debian's libclang-cpp22 and libllvm22 put the
# libraries in the loader's default path, and dpkg-shlibdeps can only name the
# package of a library found there (/usr/lib/llvm-22/lib/libLLVM.so.22.1 is a
# link owned by llvm-22-dev). For an LLVM elsewhere, configure with
# -DCMAKE_INSTALL_RPATH=<its lib directory>.
#
# `cpack -G DEB` (in the build directory, or `cpack --config
# build/CPackConfig.cmake -B DIR`) writes cudagraph-tidy_<version>_<arch>.deb.
# Its dependencies: what dpkg-shlibdeps finds for the two binaries
# (libclang-cpp22, libllvm22, libc6, libstdc++6, ...) plus
#   libclang-common-22-dev  clang's resource headers (stddef.h, the CUDA
#                           wrapper headers) that every parse includes; Debian
#                           ships them only in this -dev package
#   clang-tidy-22           the host process of the plugin (Recommends: the
#                           driver works without it)
include(GNUInstallDirs)

install(TARGETS cudagraph-tidy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT cudagraph-tidy)
install(TARGETS CudaGraphTidy LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudagraph-tidy
        COMPONENT cudagraph-tidy)
set(CGT_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/cudagraph-tidy)
install(FILES README.md lib/ApiModel/cuda_api_model.json
        DESTINATION ${CGT_DOC_DIR} COMPONENT cudagraph-tidy)
install(DIRECTORY docs/ DESTINATION ${CGT_DOC_DIR}/docs COMPONENT cudagraph-tidy)
install(DIRECTORY examples/ DESTINATION ${CGT_DOC_DIR}/examples COMPONENT cudagraph-tidy)

# lib, not lib/x86_64-linux-gnu: the plugin is not a shared library others
# link against, and its path goes into users' configurations.
if(NOT CMAKE_INSTALL_LIBDIR STREQUAL "lib")
  message(STATUS "cudagraph-tidy: plugin installs under ${CMAKE_INSTALL_LIBDIR}/cudagraph-tidy")
endif()

set(CPACK_PACKAGE_NAME cudagraph-tidy)
set(CPACK_PACKAGE_VENDOR "cudagraph-tidy")
set(CPACK_PACKAGE_CONTACT "cudagraph-tidy maintainers <cudagraph-tidy@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "clang-tidy checks for CUDA graph and resource lifetimes and shared memory")
set(CPACK_PACKAGE_DESCRIPTION
    "A standalone driver (cudagraph-tidy, text or SARIF 2.1.0) and a clang-tidy-22
plugin with the cudagraph-* checks: GPU resource leaks, use after free and
mismatched releases, CUDA graph capture bugs, shared memory index overflows
and bank conflicts.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-22-dev")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-22")
set(CPACK_GENERATOR DEB)
include(CPack)

# The CMake package: find_package(cudagraph-tidy) and cudagraph_tidy(TARGET
# ...) in users' projects (cmake/cudagraph-tidyConfig.cmake.in). Relocatable:
# paths are relative to the prefix the package is found under.
include(CMakePackageConfigHelpers)
set(CGT_PLUGIN_DIR ${CMAKE_INSTALL_LIBDIR}/cudagraph-tidy)
set(CGT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/cudagraph-tidy)
configure_package_config_file(cmake/cudagraph-tidyConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/cudagraph-tidyConfig.cmake
  INSTALL_DESTINATION ${CGT_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CGT_PLUGIN_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/cudagraph-tidyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_BINARY_DIR}/cmake/cudagraph-tidyConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/cudagraph-tidyConfigVersion.cmake
        DESTINATION ${CGT_CMAKE_DIR} COMPONENT cudagraph-tidy)
