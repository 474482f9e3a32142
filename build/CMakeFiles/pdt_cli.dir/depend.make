# Empty dependencies file for pdt_cli.
# This may be replaced when dependencies are built.
