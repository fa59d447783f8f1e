"""Time for the whole firmware comes from an injected clock, so tests control it.

The clock lives in the hardware layer's core (`hardware.core.clock`), which the device drivers and
the firmware both depend on; this module is the firmware's name for it.
"""

from hardware.core.clock import Clock, FakeClock, SetClock, SystemClock

__all__ = ["Clock", "FakeClock", "SetClock", "SystemClock"]
