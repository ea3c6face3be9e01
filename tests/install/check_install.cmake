# tests/install/check_install.cmake: installs a build of Wick into WORK_DIR/prefix, configures and builds
# tests/install/consumer against it as a user's project would (find_package(wick), wick::core), runs the
# program and compares what it prints with consumer/expected.txt. Run by the ctest test `install`, which
# passes the build's own settings:
#   cmake -DBUILD_DIR=<build> -DWORK_DIR=<dir in the build tree> -DGENERATOR=... -DMAKE_PROGRAM=...
#         -DCXX_COMPILER=... [-DLAUNCHER=...] [-DCUDA_ROOT=<the CUDA Toolkit>] -P check_install.cmake
# Nothing is written outside WORK_DIR, which is emptied first.
foreach(var BUILD_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT ${var})
    message(FATAL_ERROR "check_install.cmake needs -D${var}=...")
  endif()
endforeach()
set(consumer_source ${CMAKE_CURRENT_LIST_DIR}/consumer)
set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer)
file(REMOVE_RECURSE ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n  ${ARGN}\n${out}")
  endif()
endfunction()

run("installing the build" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component Development)

# The installed package must be relocatable: no path of the build or source tree in it.
file(GLOB package_files ${prefix}/lib*/cmake/wick/*.cmake)
if(NOT package_files)
  message(FATAL_ERROR "no CMake package under ${prefix}/lib/cmake/wick")
endif()
get_filename_component(source_dir ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
foreach(f IN LISTS package_files)
  file(READ ${f} text)
  foreach(tree ${BUILD_DIR} ${source_dir})
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names ${tree}: the installed package must not refer to the build or source tree")
    endif()
  endforeach()
endforeach()

set(configure ${CMAKE_COMMAND} -S ${consumer_source} -B ${consumer_build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(LAUNCHER)
  list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
if(CUDA_ROOT)
  list(APPEND configure -DCUDAToolkit_ROOT=${CUDA_ROOT})
endif()
run("configuring the consumer" ${configure})
run("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build})

execute_process(COMMAND ${consumer_build}/app RESULT_VARIABLE rc OUTPUT_VARIABLE printed ERROR_VARIABLE err)
file(READ ${consumer_source}/expected.txt expected)
if(NOT rc EQUAL 0 OR NOT printed STREQUAL expected)
  message(FATAL_ERROR "the consumer exited with ${rc} and printed\n${printed}${err}\ninstead of\n${expected}")
endif()
message(STATUS "a project built against the installed package printed what it should")
