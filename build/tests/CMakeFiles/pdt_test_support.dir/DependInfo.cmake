
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/support/geom_oracle.c" "tests/CMakeFiles/pdt_test_support.dir/support/geom_oracle.c.o" "gcc" "tests/CMakeFiles/pdt_test_support.dir/support/geom_oracle.c.o.d"
  "/work/main/tests/support/model_fixture.c" "tests/CMakeFiles/pdt_test_support.dir/support/model_fixture.c.o" "gcc" "tests/CMakeFiles/pdt_test_support.dir/support/model_fixture.c.o.d"
  "/work/main/tests/support/test_util.c" "tests/CMakeFiles/pdt_test_support.dir/support/test_util.c.o" "gcc" "tests/CMakeFiles/pdt_test_support.dir/support/test_util.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/pdt.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
