"""One file per schema revision, 0001 onwards."""
