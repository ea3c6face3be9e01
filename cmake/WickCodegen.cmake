# cmake/WickCodegen.cmake: runs `python3 -m codegen` whenever a declaration, a
# template or the generator itself changes, or the Python package whose names the
# ops may not take (codegen/names.py). See Note [Generated outputs] in codegen/gen.py.
include_guard(GLOBAL)

file(GLOB WICK_DECLARATIONS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/declarations/*.yaml)
execute_process(
  COMMAND ${Python_EXECUTABLE} -m codegen --list-outputs --declarations ${PROJECT_SOURCE_DIR}/declarations
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE _wick_outputs
  ERROR_VARIABLE _wick_error
  RESULT_VARIABLE _wick_rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _wick_rc EQUAL 0)
  message(FATAL_ERROR "codegen cannot list its outputs with ${Python_EXECUTABLE}:\n${_wick_error}\n"
                      "It needs PyYAML and Jinja2 (apt-get install python3-yaml python3-jinja2), "
                      "and declarations it can read.")
endif()
list(TRANSFORM _wick_outputs PREPEND ${WICK_GENERATED_DIR}/ OUTPUT_VARIABLE WICK_GENERATED_FILES)

file(GLOB_RECURSE _wick_generator CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/codegen/*.py)
file(GLOB _wick_templates CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/codegen/templates/*.j2)
file(GLOB _wick_package CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/python_ext/wick/*.py)
set(WICK_CODEGEN_SOURCES ${_wick_generator} ${_wick_templates})
# The declarations and the generator's code make the list (one header per op; the number
# of shards, Note [Shards] in codegen/dest/common.py): when they change, CMake asks for
# the list again. Templates never change it.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${WICK_DECLARATIONS} ${_wick_generator})

add_custom_command(
  OUTPUT ${WICK_GENERATED_FILES}
  COMMAND ${Python_EXECUTABLE} -m codegen --declarations ${PROJECT_SOURCE_DIR}/declarations
          --out ${WICK_GENERATED_DIR}
  DEPENDS ${WICK_DECLARATIONS} ${WICK_CODEGEN_SOURCES} ${_wick_package}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMENT "Generating bindings and kernels from declarations/*.yaml"
  VERBATIM)
add_custom_target(wick_codegen DEPENDS ${WICK_GENERATED_FILES})

# wick_generated(<var> <pattern>...): the generated files matching the patterns.
function(wick_generated var)
  set(result)
  foreach(pattern IN LISTS ARGN)
    set(matched ${WICK_GENERATED_FILES})
    list(FILTER matched INCLUDE REGEX "${pattern}")
    list(APPEND result ${matched})
  endforeach()
  set(${var} ${result} PARENT_SCOPE)
endfunction()
