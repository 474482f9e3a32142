# Empty dependencies file for pdt.
# This may be replaced when dependencies are built.
