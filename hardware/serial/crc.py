"""CRC-16/KERMIT, the checksum of the ID-003 and SAS links (and of the SAS ROM signature).

CRC-16/KERMIT is the CCITT polynomial 0x1021 run bit-reflected (0x8408), initial value 0 (SAS lets
the host choose it: the ROM signature's seed), no final XOR. It is computed here with the standard
library's C implementation of the unreflected CCITT CRC (`binascii.crc_hqx`) on bit-reversed bytes,
which is the same function, so a megabyte of ROM takes milliseconds rather than seconds.

>>> hex(crc16_kermit(b"123456789"))
'0x2189'
"""

from __future__ import annotations

import binascii

_REVERSED_BYTE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _reverse16(value: int) -> int:
    return int(f"{value:016b}"[::-1], 2)


def crc16_kermit(data: bytes, seed: int = 0) -> int:
    """CRC-16/KERMIT of `data`, starting from `seed` (0 for frames; the host's seed for 0x21)."""
    return _reverse16(binascii.crc_hqx(data.translate(_REVERSED_BYTE), _reverse16(seed)))


class SeededCrc16:
    """CRC-16/KERMIT of fixed `data` under any seed, in constant time (the SAS ROM signature: the host
    picks the seed, and the answer is due within milliseconds).

    The CRC register is linear over GF(2): crc(seed, data) = crc(0, data) XOR crc(seed, zeros), and
    crc(seed, zeros) is the XOR of crc(2**i, zeros) over the seed's set bits i. So one pass over the
    data and sixteen over as many zero bytes, done once, answer every seed with sixteen XORs.

    >>> SeededCrc16(b"123456789")(0x1234) == crc16_kermit(b"123456789", 0x1234)
    True
    """

    def __init__(self, data: bytes) -> None:
        zeros = bytes(len(data))
        self.base = crc16_kermit(data)
        self.basis = [crc16_kermit(zeros, 1 << bit) for bit in range(16)]

    def __call__(self, seed: int) -> int:
        value = self.base
        for bit, term in enumerate(self.basis):
            if seed >> bit & 1:
                value ^= term
        return value
