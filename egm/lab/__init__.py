"""The certification lab: `egm certify`, the compiled kernels, PAR reports and the RNG battery."""
