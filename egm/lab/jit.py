"""numba's `njit` for the lab's kernels, with the on-disk cache keyed by the kernel sources (`egm.jit`
says why; the engine's own compiled hot paths share the same cache and key)."""

from egm.jit import LAB_DIR, kernel_cache_dir, njit

__all__ = ["LAB_DIR", "kernel_cache_dir", "njit"]
