
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/framework/algebra.c" "CMakeFiles/pdt.dir/framework/algebra.c.o" "gcc" "CMakeFiles/pdt.dir/framework/algebra.c.o.d"
  "/work/main/framework/buf.c" "CMakeFiles/pdt.dir/framework/buf.c.o" "gcc" "CMakeFiles/pdt.dir/framework/buf.c.o.d"
  "/work/main/framework/combinations.c" "CMakeFiles/pdt.dir/framework/combinations.c.o" "gcc" "CMakeFiles/pdt.dir/framework/combinations.c.o.d"
  "/work/main/framework/count.c" "CMakeFiles/pdt.dir/framework/count.c.o" "gcc" "CMakeFiles/pdt.dir/framework/count.c.o.d"
  "/work/main/framework/dataset_rows.c" "CMakeFiles/pdt.dir/framework/dataset_rows.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dataset_rows.c.o.d"
  "/work/main/framework/engine.c" "CMakeFiles/pdt.dir/framework/engine.c.o" "gcc" "CMakeFiles/pdt.dir/framework/engine.c.o.d"
  "/work/main/framework/error.c" "CMakeFiles/pdt.dir/framework/error.c.o" "gcc" "CMakeFiles/pdt.dir/framework/error.c.o.d"
  "/work/main/framework/linalg.c" "CMakeFiles/pdt.dir/framework/linalg.c.o" "gcc" "CMakeFiles/pdt.dir/framework/linalg.c.o.d"
  "/work/main/framework/memo.c" "CMakeFiles/pdt.dir/framework/memo.c.o" "gcc" "CMakeFiles/pdt.dir/framework/memo.c.o.d"
  "/work/main/framework/registry.c" "CMakeFiles/pdt.dir/framework/registry.c.o" "gcc" "CMakeFiles/pdt.dir/framework/registry.c.o.d"
  "/work/main/framework/rule.c" "CMakeFiles/pdt.dir/framework/rule.c.o" "gcc" "CMakeFiles/pdt.dir/framework/rule.c.o.d"
  "/work/main/framework/ruleset.c" "CMakeFiles/pdt.dir/framework/ruleset.c.o" "gcc" "CMakeFiles/pdt.dir/framework/ruleset.c.o.d"
  "/work/main/framework/search.c" "CMakeFiles/pdt.dir/framework/search.c.o" "gcc" "CMakeFiles/pdt.dir/framework/search.c.o.d"
  "/work/main/framework/splitter.c" "CMakeFiles/pdt.dir/framework/splitter.c.o" "gcc" "CMakeFiles/pdt.dir/framework/splitter.c.o.d"
  "/work/main/build/generated/registry_table.c" "CMakeFiles/pdt.dir/generated/registry_table.c.o" "gcc" "CMakeFiles/pdt.dir/generated/registry_table.c.o.d"
  "/work/main/problems/classification.c" "CMakeFiles/pdt.dir/problems/classification.c.o" "gcc" "CMakeFiles/pdt.dir/problems/classification.c.o.d"
  "/work/main/problems/classification_fit.c" "CMakeFiles/pdt.dir/problems/classification_fit.c.o" "gcc" "CMakeFiles/pdt.dir/problems/classification_fit.c.o.d"
  "/work/main/rules/axis.c" "CMakeFiles/pdt.dir/rules/axis.c.o" "gcc" "CMakeFiles/pdt.dir/rules/axis.c.o.d"
  "/work/main/rules/hyperplane.c" "CMakeFiles/pdt.dir/rules/hyperplane.c.o" "gcc" "CMakeFiles/pdt.dir/rules/hyperplane.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
