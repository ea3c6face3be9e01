# cmake/WickSanitize.cmake: the option WICK_SANITIZE and the INTERFACE target wick::sanitize that carries it.
#
# -DWICK_SANITIZE=address,undefined (any list that the compiler's -fsanitize= takes) instruments every
# target that links wick::sanitize: wick_core links it PUBLIC, so the module wick._C, the GoogleTest
# binary and any other program built here against wick::core are compiled and linked the same way.
# scripts/sanitize builds this configuration and runs the tests under it, with the runtime options
# and the LD_PRELOAD that the Python process needs.
include_guard(GLOBAL)

set(WICK_SANITIZE "" CACHE STRING
    "Sanitizers for every target, as -fsanitize= takes them (address,undefined); empty for none")
add_library(wick_sanitize INTERFACE)
add_library(wick::sanitize ALIAS wick_sanitize)
if(NOT WICK_SANITIZE)
  return()
endif()

include(CheckCXXSourceCompiles)
string(MAKE_C_IDENTIFIER "WICK_HAS_SANITIZE_${WICK_SANITIZE}" _wick_sanitize_check)
set(CMAKE_REQUIRED_FLAGS -fsanitize=${WICK_SANITIZE})
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=${WICK_SANITIZE})
check_cxx_source_compiles("int main() { return 0; }" ${_wick_sanitize_check})
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT ${_wick_sanitize_check})
  message(FATAL_ERROR "${CMAKE_CXX_COMPILER} cannot compile and link with -fsanitize=${WICK_SANITIZE}: "
                      "name sanitizers it has (address,undefined with GCC or Clang), and install their "
                      "runtimes (Debian: libasan8 libubsan1, which g++ pulls in)")
endif()

# Every report ends the process (no "recover and go on" that a test run would scroll past), and its
# stack is complete: frame pointers for the unwinder, debug information for file:line.
set(_wick_sanitize_flags -fsanitize=${WICK_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
# C and C++ only: nvcc does not take these, so CUDA units stay uninstrumented (the sanitizer build is CPU-only).
target_compile_options(wick_sanitize INTERFACE "$<$<COMPILE_LANGUAGE:C,CXX>:${_wick_sanitize_flags}>")
target_link_options(wick_sanitize INTERFACE -fsanitize=${WICK_SANITIZE})
message(STATUS "Sanitizers: ${WICK_SANITIZE}; run the tests with scripts/sanitize")
