file(REMOVE_RECURSE
  "CMakeFiles/pdt_test_support.dir/support/geom_oracle.c.o"
  "CMakeFiles/pdt_test_support.dir/support/geom_oracle.c.o.d"
  "CMakeFiles/pdt_test_support.dir/support/model_fixture.c.o"
  "CMakeFiles/pdt_test_support.dir/support/model_fixture.c.o.d"
  "CMakeFiles/pdt_test_support.dir/support/test_util.c.o"
  "CMakeFiles/pdt_test_support.dir/support/test_util.c.o.d"
  "libpdt_test_support.a"
  "libpdt_test_support.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/pdt_test_support.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
