"""The small core the hardware layer depends on, and the firmware (`egm`) with it.

    clock.py   the injected clock (`Clock`, `SystemClock`, `FakeClock`)
    config.py  the device configuration types (`DeviceConfig`, `DevicesConfig`) and `ConfigError`

Dependencies point one way: `egm` imports `hardware`, and nothing under `hardware/` imports `egm`
(tests/test_dependencies.py checks it). The events the devices emit are in `hardware.interfaces`.
"""
