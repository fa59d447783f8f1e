"""`egm devices probe`: open each configured port, speak the device's protocol once, and say what
answered (model, firmware, state) or why nothing did (the port, and the operating system's reason).

A probe changes nothing a game depends on: the bill acceptor is asked its status and version, the
printer its status, the panel for a new session (its HELLO names the firmware and is followed by the
state of every door and key). Run it with the cabinet software stopped: a port serves one program.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.core.clock import SystemClock
from hardware.core.config import DeviceConfig, DevicesConfig
from hardware.serial import id003_protocol as p
from hardware.serial import panel_protocol as pp
from hardware.serial import tcl_protocol as t
from hardware.serial.backend import protocol_of
from hardware.serial.link import SerialLink
from hardware.serial.ports import PortFactory, describe_line, line_settings, open_serial_port

ID003_STATES = {
    p.ENABLE_IDLING: "idling, accepting",
    p.DISABLE_INHIBIT: "idling, inhibited",
    p.INITIALIZE: "waiting for its settings (initialize)",
    p.ACCEPTING: "accepting an item",
    p.ESCROW: "an item in escrow",
    p.STACKING: "stacking",
    p.VEND_VALID: "vend valid (waiting for the host's ACK)",
    p.STACKED: "stacked",
    p.REJECTING: "rejecting an item",
    p.RETURNING: "returning an item",
    p.HOLDING: "holding an item",
    p.POWER_UP: "powered up, waiting for a reset",
    p.POWER_UP_BILL_IN_ACCEPTOR: "powered up with a bill in the acceptor",
    p.POWER_UP_BILL_IN_STACKER: "powered up with a bill in the stacker",
    p.PAUSE: "paused (a second bill inserted)",
    p.COMMUNICATION_ERROR: "reports a communication error",
    p.INVALID_COMMAND: "reports an invalid command",
}


@dataclass
class Probe:
    """What one configured device answered."""

    device: str
    port: str
    protocol: str
    line: str
    answered: bool = False
    model: str = ""
    firmware: str = ""
    state: str = ""
    reason: str = ""  # why it did not answer
    details: dict[str, str] = field(default_factory=dict)

    def to_record(self) -> dict[str, object]:
        return {k: v for k, v in vars(self).items() if v or k in ("answered", "device")}

    def line_text(self) -> str:
        head = f"{self.device}: {self.protocol} on {self.port} ({self.line})"
        if not self.answered:
            return f"{head}: NO ANSWER: {self.reason}"
        extra = "".join(f", {k} {v}" for k, v in self.details.items())
        return f"{head}: {self.model}, firmware {self.firmware or 'not reported'}, {self.state}{extra}"


def probe_devices(devices: DevicesConfig, port_factory: PortFactory = open_serial_port) -> list[Probe]:
    """Probe every device configured on a serial port (a board shared by panel and doors once)."""
    probes: list[Probe] = []
    seen: set[str] = set()
    for kind in ("bill_acceptor", "printer", "button_panel", "doors"):
        device: DeviceConfig = getattr(devices, kind)
        if device.backend != "serial" or not device.port or device.port in seen:
            continue
        seen.add(device.port)
        probes.append(probe_device(kind, device, port_factory))
    return probes


def probe_device(kind: str, device: DeviceConfig, port_factory: PortFactory = open_serial_port) -> Probe:
    protocol = protocol_of(kind, device)
    line = line_settings(protocol, device)
    url = device.port or ""
    result = Probe(kind, url, protocol, describe_line(line))
    link: SerialLink[object] = SerialLink(
        kind, url, line, SystemClock(), timeout_s=device.timeout_s, port_factory=port_factory,
        flush_input=protocol != "egm-panel",
    )
    try:
        speak = {"id003": _id003, "tcl": _tcl, "egm-panel": _panel, "escpos": _escpos}[protocol]
        speak(link, result)
    finally:
        link.close()
    if not result.answered and not result.reason:
        result.reason = _silence(link, result)
    return result


def _silence(link: SerialLink[object], result: Probe) -> str:
    if link.open_error is not None:
        return f"the port cannot be opened: {link.open_error}"
    return (f"the port opened but no valid {result.protocol} reply came in {link.timeout_s:g} s; check the "
            f"device's power and cable, and that it is set to {result.line}")


def _id003(link: SerialLink[object], result: Probe) -> None:
    reader = p.FrameReader()
    status = link.exchange(p.encode_frame(p.STATUS_REQUEST), reader)
    if not isinstance(status, p.Frame):
        return
    result.answered, result.model = True, "JCM ID-003 bill acceptor"
    fault = p.ERROR_KINDS.get(status.command)
    state = ID003_STATES.get(status.command, f"status 0x{status.command:02X}")
    result.state = f"fault {fault[0]}" if fault else state
    version = link.exchange(p.encode_frame(p.VERSION_REQUEST), reader)
    if isinstance(version, p.Frame) and version.command == p.VERSION_REQUEST:
        result.firmware = version.data.decode("ascii", errors="replace").strip()


def _tcl(link: SerialLink[object], result: Probe) -> None:
    status = link.exchange(t.STATUS_REQUEST, t.StatusReader())
    if not isinstance(status, t.Status):
        return
    result.answered, result.model = True, f"TCL ticket printer (address {status.address})"
    result.firmware = status.firmware
    faults = sorted(status.faults())
    state = "faults " + ", ".join(faults) if faults else ("busy" if status.busy else "ready")
    if status.has(t.PAPER_LOW):
        state += ", paper low"
    result.state = state
    result.details["template"] = status.template


def _panel(link: SerialLink[object], result: Probe) -> None:
    seen: list[pp.PanelMessage] = []
    reader = pp.LineReader()

    def pong(message: pp.PanelMessage) -> bool:
        return message.fields == ("PONG", "1")

    if link.exchange(pp.encode_line("SYNC", "1"), reader, accept=pong, on_other=seen.append) is None:
        return
    result.answered, result.model = True, "egm-panel button panel"
    hello = next((m for m in seen if m.kind == "HELLO" and len(m.fields) == 4), None)
    result.firmware = hello.fields[3] if hello else ""
    switches = {m.fields[3]: m.fields[4] for m in seen if m.kind in ("DOOR", "KEY") and len(m.fields) == 5}
    result.state = ", ".join(f"{name} {value.lower()}" for name, value in switches.items()) or "answering"


def _escpos(link: SerialLink[object], result: Probe) -> None:
    result.reason = "ESC/POS printers are not probed; print a test page with the printer's own button"
