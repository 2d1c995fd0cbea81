"""What a search kernel returns as its status: here, apart from the kernels, so that reading it does not
import numba (a fresh process may run a kernel compiled ahead of time, `pdb_aot`)."""

FOUND, EXHAUSTED, NODE_LIMIT, TIME_LIMIT = 1, 0, -1, -2
