file(REMOVE_RECURSE
  "libpdt_test_support.a"
)
