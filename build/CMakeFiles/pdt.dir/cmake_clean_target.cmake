file(REMOVE_RECURSE
  "libpdt.a"
)
