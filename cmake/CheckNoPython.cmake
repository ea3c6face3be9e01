# cmake -DDIR=<dir> -P cmake/CheckNoPython.cmake: fails if any file under DIR includes Python.h.
file(GLOB_RECURSE _files ${DIR}/*)
set(_bad)
foreach(f IN LISTS _files)
  file(STRINGS ${f} _hits REGEX "#[ \t]*include[ \t]*[<\"]Python\\.h[>\"]")
  if(_hits)
    list(APPEND _bad ${f})
  endif()
endforeach()
if(_bad)
  message(FATAL_ERROR "core/ must not include Python.h (it is the library that C++ programs use without Python), "
                      "but these do:\n  ${_bad}")
endif()
message(STATUS "core/ is free of Python.h")
