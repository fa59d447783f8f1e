"""The `serial` backends: real peripherals on serial ports (a device path or a pyserial URL).

Each protocol has one module for its wire format (frames, codes, checksum; shared with the `sim`
backend) and one module for its driver. Ports are opened through an injected `PortFactory`.
"""
