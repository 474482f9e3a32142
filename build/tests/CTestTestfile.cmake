# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[test_cli]=] "/work/main/build/tests/test_cli")
set_tests_properties([=[test_cli]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_csv]=] "/work/main/build/tests/test_csv")
set_tests_properties([=[test_csv]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_dataset]=] "/work/main/build/tests/test_dataset")
set_tests_properties([=[test_dataset]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_dl85]=] "/work/main/build/tests/test_dl85")
set_tests_properties([=[test_dl85]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_geometry]=] "/work/main/build/tests/test_geometry")
set_tests_properties([=[test_geometry]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_geometry_affine]=] "/work/main/build/tests/test_geometry_affine")
set_tests_properties([=[test_geometry_affine]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_geometry_orient]=] "/work/main/build/tests/test_geometry_orient")
set_tests_properties([=[test_geometry_orient]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_model]=] "/work/main/build/tests/test_model")
set_tests_properties([=[test_model]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_model_json]=] "/work/main/build/tests/test_model_json")
set_tests_properties([=[test_model_json]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_rational]=] "/work/main/build/tests/test_rational")
set_tests_properties([=[test_rational]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_render]=] "/work/main/build/tests/test_render")
set_tests_properties([=[test_render]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[test_rules]=] "/work/main/build/tests/test_rules")
set_tests_properties([=[test_rules]=] PROPERTIES  ENVIRONMENT "PDT_BIN=/work/main/build/pdt;PDT_SOURCE_DIR=/work/main;PDT_DATA_DIR=/work/main/tests/data" LABELS "unit" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;17;add_test;/work/main/tests/CMakeLists.txt;0;")
