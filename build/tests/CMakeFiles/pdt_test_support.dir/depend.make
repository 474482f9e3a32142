# Empty dependencies file for pdt_test_support.
# This may be replaced when dependencies are built.
