file(REMOVE_RECURSE
  "CMakeFiles/pdt_cli.dir/cli/cmd_count.c.o"
  "CMakeFiles/pdt_cli.dir/cli/cmd_count.c.o.d"
  "CMakeFiles/pdt_cli.dir/cli/cmd_demo.c.o"
  "CMakeFiles/pdt_cli.dir/cli/cmd_demo.c.o.d"
  "CMakeFiles/pdt_cli.dir/cli/cmd_fit.c.o"
  "CMakeFiles/pdt_cli.dir/cli/cmd_fit.c.o.d"
  "CMakeFiles/pdt_cli.dir/cli/cmd_predict.c.o"
  "CMakeFiles/pdt_cli.dir/cli/cmd_predict.c.o.d"
  "CMakeFiles/pdt_cli.dir/cli/data.c.o"
  "CMakeFiles/pdt_cli.dir/cli/data.c.o.d"
  "CMakeFiles/pdt_cli.dir/cli/options.c.o"
  "CMakeFiles/pdt_cli.dir/cli/options.c.o.d"
  "CMakeFiles/pdt_cli.dir/cli/pdt.c.o"
  "CMakeFiles/pdt_cli.dir/cli/pdt.c.o.d"
  "CMakeFiles/pdt_cli.dir/generated/command_table.c.o"
  "CMakeFiles/pdt_cli.dir/generated/command_table.c.o.d"
  "generated/command_table.c"
  "pdt"
  "pdt.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pdt_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
