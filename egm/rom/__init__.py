"""Program ROM and pay-table ROM (the patent's ROM 210 and 215): signed firmware, verified at boot.

`verify_rom()` is the self-test the cabinet runs at power-up, when a door closes and from the operator
menu; `load_paytable()` is the only way a game obtains its pay table. See docs/rom.md.
"""

from egm.rom.manifest import FIRMWARE_DIRS, RomCheck, RomProblem, configured_paths, verify_rom
from egm.rom.paytable import PayTable, PaytableError, PaytableHeader, PaytableInvalid, load_paytable
from egm.rom.signing import DEVELOPMENT_KEY_ID, RomError

__all__ = [
    "DEVELOPMENT_KEY_ID",
    "FIRMWARE_DIRS",
    "PayTable",
    "PaytableError",
    "PaytableInvalid",
    "PaytableHeader",
    "RomCheck",
    "RomError",
    "RomProblem",
    "configured_paths",
    "load_paytable",
    "verify_rom",
]
