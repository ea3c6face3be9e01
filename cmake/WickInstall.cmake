# cmake/WickInstall.cmake: `cmake --install build --prefix P` of the C++ library, for programs that
# use wick_core without Python: the headers (hand-written and generated) in P/include, libwick_core.a
# in P/lib, and the CMake package in P/lib/cmake/wick, so that a project writes
#   find_package(wick REQUIRED)                          # with -DCMAKE_PREFIX_PATH=P
#   target_link_libraries(app PRIVATE wick::core)
# and gets the include directories, C++17, and what the static library links (OpenMP, SLEEF, OpenBLAS,
# and the CUDA runtime when built with CUDA). Everything here is the component `Development`; the
# module wick._C is not part of it. tests/install builds such a program against an installed copy.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WICK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/wick CACHE STRING
    "Where the CMake package (wickConfig.cmake) is installed, relative to the prefix")

# Exported as wick::core and wick::sanitize: the names that the build tree's aliases give them.
set_target_properties(wick_core PROPERTIES EXPORT_NAME core)
set_target_properties(wick_sanitize PROPERTIES EXPORT_NAME sanitize)
install(TARGETS wick_core EXPORT wickTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS wick_sanitize EXPORT wickTargets COMPONENT Development)
# Both trees of headers merge into P/include/wick; generated/ holds nothing else under include/.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/wick ${WICK_GENERATED_DIR}/include/wick
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development)
install(EXPORT wickTargets NAMESPACE wick:: DESTINATION ${WICK_INSTALL_CMAKEDIR} COMPONENT Development)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/wickConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/wickConfig.cmake
                              INSTALL_DESTINATION ${WICK_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/wickConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/wickConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/wickConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/FindSLEEF.cmake
        DESTINATION ${WICK_INSTALL_CMAKEDIR} COMPONENT Development)
