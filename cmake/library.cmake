# libpdt as an installed library (issue 17), included from CMakeLists.txt after
# the `pdt` target (the static library the project's tests and examples link).
#
#  - One set of objects, compiled position-independent, makes both libpdt.a
#    (`pdt`) and libpdt.so.0 (`pdt_shared`, SONAME libpdt.so.${PDT_SOVERSION}).
#    -fno-semantic-interposition and -Bsymbolic-functions keep calls inside the
#    library direct, as in a static build; cmake/libpdt.map exports pdt_* only.
#  - The pdt program links libpdt.so: a plugin built with
#    `pkg-config --libs pdt` links it too, and the process holds one copy of
#    the library, the one that runs the fit (framework/plugin.c refuses a
#    plugin that would bring a second one).
#  - `cmake --install` installs both libraries, the public headers (in
#    include/pdt), pdt.pc and the CMake package pdtConfig.cmake
#    (find_package(pdt): pdt::pdt, pdt::pdt_static), all relocatable.

# Raised on every incompatible change of the library's ABI.
set(PDT_SOVERSION 0)
file(STRINGS ${PROJECT_SOURCE_DIR}/framework/pdt_plugin.h _abi_line REGEX "^#define PDT_PLUGIN_ABI ")
string(REGEX MATCH "[0-9]+" PDT_PLUGIN_ABI "${_abi_line}")

set_target_properties(pdt PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_compile_definitions(pdt PRIVATE PDT_BUILDING_LIBPDT)
check_c_compiler_flag(-fno-semantic-interposition PDT_HAVE_NO_SEMANTIC_INTERPOSITION)
if(PDT_HAVE_NO_SEMANTIC_INTERPOSITION)
  target_compile_options(pdt PRIVATE -fno-semantic-interposition)
endif()

add_library(pdt_shared SHARED $<TARGET_OBJECTS:pdt>)
add_dependencies(pdt_shared pdt)
set_target_properties(pdt_shared PROPERTIES OUTPUT_NAME pdt VERSION ${PROJECT_VERSION}
                      SOVERSION ${PDT_SOVERSION} LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/libpdt.map)
target_include_directories(pdt_shared INTERFACE ${PROJECT_SOURCE_DIR}/framework)
target_link_libraries(pdt_shared PUBLIC PkgConfig::GMP PRIVATE PkgConfig::JANSSON ${MATH_LIBRARY}
                      ${CMAKE_DL_LIBS} Threads::Threads)
target_link_options(pdt_shared PRIVATE LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/libpdt.map
                    LINKER:-Bsymbolic-functions)
if(NOT PDT_SANITIZE AND NOT PDT_FUZZ AND NOT PDT_TSAN)
  target_link_options(pdt_shared PRIVATE LINKER:-z,defs)
endif()
set(PDT_WITH_OPENMP OFF)
set(PDT_PC_OPENMP "")
if(OpenMP_C_FOUND)
  # GCC's runtime is opened on demand (framework/lazy/openmp.c): a run that
  # starts no thread does not load it.  Other compilers' runtimes and
  # sanitised builds link it as usual.
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT PDT_SANITIZE AND NOT PDT_FUZZ AND NOT PDT_TSAN)
    target_sources(pdt_shared PRIVATE ${PROJECT_SOURCE_DIR}/framework/lazy/openmp.c)
  else()
    target_link_libraries(pdt_shared PRIVATE OpenMP::OpenMP_C)
  endif()
  set(PDT_WITH_OPENMP ON)
  set(PDT_PC_OPENMP "${OpenMP_C_FLAGS}")
endif()
# The program finds libpdt.so beside it in the build tree, in ../lib once installed.
# What cli/ calls itself (libpdt.a brought these along).
target_link_libraries(pdt_cli PRIVATE PkgConfig::JANSSON ${MATH_LIBRARY})
# One run path serves both ($ORIGIN, then $ORIGIN/../lib), so CMake has no
# run path to rewrite at install: for one it would rewrite, it links the
# build-tree program with a run path ending in an empty entry (room to grow),
# which the loader reads as the current directory, and every system library
# was looked for in a dozen places under whatever directory pdt ran in
# (48 failed opens, a tenth of a small run's start-up; and a file there named
# like one of them would have been loaded).
set_target_properties(pdt_cli PROPERTIES BUILD_WITH_INSTALL_RPATH ON
                      INSTALL_RPATH "$ORIGIN:$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")

install(TARGETS pdt pdt_shared ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The public headers and what they include; nothing internal.
install(FILES framework/pdt.h framework/pdt_plugin.h framework/pdt_geometry.h framework/pdt_linalg.h
              framework/bitset.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pdt)

file(RELATIVE_PATH PDT_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(cmake/pdt.pc.in ${PROJECT_BINARY_DIR}/pdt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pdt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(PDT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pdt)
file(RELATIVE_PATH PDT_CMAKE_TO_PREFIX /p/${PDT_CMAKE_DIR} /p)
set(PDT_SHARED_FILE ${CMAKE_SHARED_LIBRARY_PREFIX}pdt${CMAKE_SHARED_LIBRARY_SUFFIX}.${PROJECT_VERSION})
set(PDT_SHARED_SONAME ${CMAKE_SHARED_LIBRARY_PREFIX}pdt${CMAKE_SHARED_LIBRARY_SUFFIX}.${PDT_SOVERSION})
configure_file(cmake/pdtConfig.cmake.in ${PROJECT_BINARY_DIR}/pdtConfig.cmake @ONLY)
include(CMakePackageConfigHelpers)
# 0.x: a minor release may change the ABI.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pdtConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pdtConfig.cmake ${PROJECT_BINARY_DIR}/pdtConfigVersion.cmake
        DESTINATION ${PDT_CMAKE_DIR})
