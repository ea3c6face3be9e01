# cmake/FindSLEEF.cmake: find_package(SLEEF) for SLEEF, the vectorised math library, which ships no
# CMake package of its own on Debian (libsleef-dev). Defines the imported target SLEEF::sleef.
# Installed beside wickConfig.cmake, which finds it again for programs that link wick::core.
include_guard(GLOBAL)

find_path(SLEEF_INCLUDE_DIR sleef.h)
find_library(SLEEF_LIBRARY sleef)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SLEEF REQUIRED_VARS SLEEF_LIBRARY SLEEF_INCLUDE_DIR
                                  REASON_FAILURE_MESSAGE "wick needs SLEEF for vectorised math: apt-get install libsleef-dev")
if(SLEEF_FOUND AND NOT TARGET SLEEF::sleef)
  add_library(SLEEF::sleef UNKNOWN IMPORTED)
  set_target_properties(SLEEF::sleef PROPERTIES IMPORTED_LOCATION "${SLEEF_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${SLEEF_INCLUDE_DIR}")
endif()
mark_as_advanced(SLEEF_INCLUDE_DIR SLEEF_LIBRARY)
