"""numba's `njit` for the lab's kernels. `egm.jit` says where their compiled code is cached (the lab's
own folder, keyed by the sources, not firmware) and why the firmware's is not."""

from egm.jit import LAB_DIR, kernel_cache_dir, njit

__all__ = ["LAB_DIR", "kernel_cache_dir", "njit"]
