
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/cli/cmd_count.c" "CMakeFiles/pdt_cli.dir/cli/cmd_count.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/cmd_count.c.o.d"
  "/work/main/cli/cmd_demo.c" "CMakeFiles/pdt_cli.dir/cli/cmd_demo.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/cmd_demo.c.o.d"
  "/work/main/cli/cmd_fit.c" "CMakeFiles/pdt_cli.dir/cli/cmd_fit.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/cmd_fit.c.o.d"
  "/work/main/cli/cmd_predict.c" "CMakeFiles/pdt_cli.dir/cli/cmd_predict.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/cmd_predict.c.o.d"
  "/work/main/cli/data.c" "CMakeFiles/pdt_cli.dir/cli/data.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/data.c.o.d"
  "/work/main/cli/options.c" "CMakeFiles/pdt_cli.dir/cli/options.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/options.c.o.d"
  "/work/main/cli/pdt.c" "CMakeFiles/pdt_cli.dir/cli/pdt.c.o" "gcc" "CMakeFiles/pdt_cli.dir/cli/pdt.c.o.d"
  "/work/main/build/generated/command_table.c" "CMakeFiles/pdt_cli.dir/generated/command_table.c.o" "gcc" "CMakeFiles/pdt_cli.dir/generated/command_table.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/pdt.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
