
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/framework/algebra.c" "CMakeFiles/pdt.dir/framework/algebra.c.o" "gcc" "CMakeFiles/pdt.dir/framework/algebra.c.o.d"
  "/work/main/framework/atomic_file.c" "CMakeFiles/pdt.dir/framework/atomic_file.c.o" "gcc" "CMakeFiles/pdt.dir/framework/atomic_file.c.o.d"
  "/work/main/framework/buf.c" "CMakeFiles/pdt.dir/framework/buf.c.o" "gcc" "CMakeFiles/pdt.dir/framework/buf.c.o.d"
  "/work/main/framework/combinations.c" "CMakeFiles/pdt.dir/framework/combinations.c.o" "gcc" "CMakeFiles/pdt.dir/framework/combinations.c.o.d"
  "/work/main/framework/count.c" "CMakeFiles/pdt.dir/framework/count.c.o" "gcc" "CMakeFiles/pdt.dir/framework/count.c.o.d"
  "/work/main/framework/csv.c" "CMakeFiles/pdt.dir/framework/csv.c.o" "gcc" "CMakeFiles/pdt.dir/framework/csv.c.o.d"
  "/work/main/framework/csv_cells.c" "CMakeFiles/pdt.dir/framework/csv_cells.c.o" "gcc" "CMakeFiles/pdt.dir/framework/csv_cells.c.o.d"
  "/work/main/framework/csv_lex.c" "CMakeFiles/pdt.dir/framework/csv_lex.c.o" "gcc" "CMakeFiles/pdt.dir/framework/csv_lex.c.o.d"
  "/work/main/framework/csv_roles.c" "CMakeFiles/pdt.dir/framework/csv_roles.c.o" "gcc" "CMakeFiles/pdt.dir/framework/csv_roles.c.o.d"
  "/work/main/framework/dataset.c" "CMakeFiles/pdt.dir/framework/dataset.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dataset.c.o.d"
  "/work/main/framework/dataset_labels.c" "CMakeFiles/pdt.dir/framework/dataset_labels.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dataset_labels.c.o.d"
  "/work/main/framework/dataset_rank.c" "CMakeFiles/pdt.dir/framework/dataset_rank.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dataset_rank.c.o.d"
  "/work/main/framework/dataset_rows.c" "CMakeFiles/pdt.dir/framework/dataset_rows.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dataset_rows.c.o.d"
  "/work/main/framework/dataset_subset.c" "CMakeFiles/pdt.dir/framework/dataset_subset.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dataset_subset.c.o.d"
  "/work/main/framework/dl85.c" "CMakeFiles/pdt.dir/framework/dl85.c.o" "gcc" "CMakeFiles/pdt.dir/framework/dl85.c.o.d"
  "/work/main/framework/engine.c" "CMakeFiles/pdt.dir/framework/engine.c.o" "gcc" "CMakeFiles/pdt.dir/framework/engine.c.o.d"
  "/work/main/framework/error.c" "CMakeFiles/pdt.dir/framework/error.c.o" "gcc" "CMakeFiles/pdt.dir/framework/error.c.o.d"
  "/work/main/framework/file.c" "CMakeFiles/pdt.dir/framework/file.c.o" "gcc" "CMakeFiles/pdt.dir/framework/file.c.o.d"
  "/work/main/framework/geometry.c" "CMakeFiles/pdt.dir/framework/geometry.c.o" "gcc" "CMakeFiles/pdt.dir/framework/geometry.c.o.d"
  "/work/main/framework/geometry_exact.c" "CMakeFiles/pdt.dir/framework/geometry_exact.c.o" "gcc" "CMakeFiles/pdt.dir/framework/geometry_exact.c.o.d"
  "/work/main/framework/geometry_filter.c" "CMakeFiles/pdt.dir/framework/geometry_filter.c.o" "gcc" "CMakeFiles/pdt.dir/framework/geometry_filter.c.o.d"
  "/work/main/framework/json_path.c" "CMakeFiles/pdt.dir/framework/json_path.c.o" "gcc" "CMakeFiles/pdt.dir/framework/json_path.c.o.d"
  "/work/main/framework/linalg.c" "CMakeFiles/pdt.dir/framework/linalg.c.o" "gcc" "CMakeFiles/pdt.dir/framework/linalg.c.o.d"
  "/work/main/framework/memo.c" "CMakeFiles/pdt.dir/framework/memo.c.o" "gcc" "CMakeFiles/pdt.dir/framework/memo.c.o.d"
  "/work/main/framework/model.c" "CMakeFiles/pdt.dir/framework/model.c.o" "gcc" "CMakeFiles/pdt.dir/framework/model.c.o.d"
  "/work/main/framework/model_json.c" "CMakeFiles/pdt.dir/framework/model_json.c.o" "gcc" "CMakeFiles/pdt.dir/framework/model_json.c.o.d"
  "/work/main/framework/model_json_load.c" "CMakeFiles/pdt.dir/framework/model_json_load.c.o" "gcc" "CMakeFiles/pdt.dir/framework/model_json_load.c.o.d"
  "/work/main/framework/model_json_rule.c" "CMakeFiles/pdt.dir/framework/model_json_rule.c.o" "gcc" "CMakeFiles/pdt.dir/framework/model_json_rule.c.o.d"
  "/work/main/framework/model_text.c" "CMakeFiles/pdt.dir/framework/model_text.c.o" "gcc" "CMakeFiles/pdt.dir/framework/model_text.c.o.d"
  "/work/main/framework/rational.c" "CMakeFiles/pdt.dir/framework/rational.c.o" "gcc" "CMakeFiles/pdt.dir/framework/rational.c.o.d"
  "/work/main/framework/registry.c" "CMakeFiles/pdt.dir/framework/registry.c.o" "gcc" "CMakeFiles/pdt.dir/framework/registry.c.o.d"
  "/work/main/framework/render_dot.c" "CMakeFiles/pdt.dir/framework/render_dot.c.o" "gcc" "CMakeFiles/pdt.dir/framework/render_dot.c.o.d"
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
