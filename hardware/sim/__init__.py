"""The `sim` backend: simulators that speak the real wire protocols from the device's side.

Each simulator is a device model (`SimDevice`) served over a pty or a TCP port by
`hardware.sim.transport`, so the serial drivers run byte for byte against it. Faults are injected
by calling the model's methods, or by typing commands to `egm sim ...`. The SAS host simulator
(`sas_host`, `egm sim sas-host`) is the other way round: it plays the casino host and polls the
cabinet's SAS port.
"""
