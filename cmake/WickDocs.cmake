# cmake/WickDocs.cmake: the target `docs`, which builds the manual into <build>/docs/html with Sphinx
# (python3-sphinx), warnings as errors. It is not part of ALL: `cmake --build build --target docs`.
# The pages are docs/*.rst and the op reference that the generator writes (generated/docs/reference).
include_guard(GLOBAL)

add_custom_target(docs
  COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/build_docs.py --generated ${WICK_GENERATED_DIR}
          --out ${CMAKE_BINARY_DIR}/docs
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMENT "Building the manual into ${CMAKE_BINARY_DIR}/docs/html"
  VERBATIM)
add_dependencies(docs wick_codegen)
