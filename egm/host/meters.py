"""SAS meter replies, from the same meters the cabinet shows (`egm meters`).

Every reply is built from one `Meters` object: wager memory replaces its meters whole at each commit,
so one read of `memory.meters` is one moment, and a reply never mixes two transactions.

Units. The cabinet meters money in cents; SAS reports credits of the accounting denomination
(config `denomination_cents`): credits = cents // denomination. The denomination the player chooses
(docs/cabinet.md#denomination) never changes it: its games' stakes and wins are metered in cents.
Counts (games, doors, power resets, bills) are reported as they are. Codes marked (cents) in SAS
are reported in cents. Meters are 10 digits and roll over as the cabinet's do; 4-byte BCD fields
show the low 8 digits.

How the cabinet's meters map to SAS:
  coin in / coin out / jackpot      coin_in / coin_out (wins credited) / jackpot (hand-paid wins)
  cancelled credits, hand paid      cancelled_credits, handpaid_cancelled_credits
  total drop                        bills_in + tickets_in + aft_in (money that entered the machine)
  bills accepted, by denomination   bills_in, bills_by_denomination
  tickets in / out                  tickets_in / tickets_out
  electronic in / out (AFT)         aft_in / aft_out
  true coin in / out                0: the cabinet has no coin acceptor or hopper
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from egm.meters import Meters
from hardware.serial.sas_protocol import bcd

BILL_COUNT_CODES = {100: 0x40, 200: 0x41, 500: 0x42, 1000: 0x43, 2000: 0x44, 2500: 0x45, 5000: 0x46,
                    10000: 0x47}
CENTS_CODES = frozenset({0x0D, 0x0E, 0xA0, 0xB8})  # meter codes SAS defines in cents
BILL_DENOMINATIONS_1E = (100, 500, 1000, 2000, 5000, 10000)  # 0x1E: $1, $5, $10, $20, $50, $100


class SasMeters:
    """The meters of one moment, in SAS units."""

    def __init__(self, meters: Meters, denomination_cents: int) -> None:
        self.meters = meters
        self.denom = denomination_cents

    def credits(self, name: str) -> int:
        return self.meters[name] // self.denom

    def drop(self) -> int:
        return (self.meters["bills_in"] + self.meters["tickets_in"] + self.meters["aft_in"]) // self.denom

    def bills(self, denomination_cents: int) -> int:
        return self.meters.bills_by_denomination.get(str(denomination_cents), 0)

    def by_code(self) -> Mapping[int, Callable[[], int]]:
        """SAS meter code -> its value (the codes of long polls 0x2F and 0x6F this cabinet keeps)."""
        m = self.meters
        codes: dict[int, Callable[[], int]] = {
            0x00: lambda: self.credits("coin_in"),
            0x01: lambda: self.credits("coin_out"),
            0x02: lambda: self.credits("jackpot"),
            0x03: lambda: self.credits("handpaid_cancelled_credits"),
            0x04: lambda: self.credits("cancelled_credits"),
            0x05: lambda: m["games_played"],
            0x06: lambda: m["games_won"],
            0x07: lambda: m["games_lost"],
            0x08: lambda: 0,  # credits from the coin acceptor
            0x09: lambda: 0,  # credits paid from the hopper
            0x0A: lambda: 0,  # credits from coins to the drop
            0x0B: lambda: self.credits("bills_in"),
            0x0C: lambda: self.credits("current_credits"),
            0x0D: lambda: m["tickets_in"],  # cents
            0x0E: lambda: m["tickets_out"],  # cents
            0x15: lambda: self.credits("tickets_in"),
            0x16: lambda: self.credits("tickets_out"),
            0x17: lambda: self.credits("aft_in"),
            0x18: lambda: self.credits("aft_out"),
            0x24: self.drop,
            0xA0: lambda: m["aft_in"],  # in-house cashable transfers to the machine, cents
            0xB8: lambda: m["aft_out"],  # in-house cashable transfers to the host, cents
        }
        for denomination, code in BILL_COUNT_CODES.items():
            codes[code] = lambda d=denomination: self.bills(d)
        return codes

    def game_by_code(self, game_meters: Mapping[str, int]) -> Mapping[int, Callable[[], int]]:
        """The meter codes kept per game (0x2F/0x6F with a game number)."""
        return {
            0x00: lambda: game_meters.get("coin_in", 0) // self.denom,
            0x01: lambda: game_meters.get("coin_out", 0) // self.denom,
            0x05: lambda: game_meters.get("games_played", 0),
        }

    # --- the fixed meter polls --------------------------------------------------------------------
    def reply_body(self, command: int) -> bytes | None:
        """The data of long poll `command`'s reply (0x0F, 0x10-0x17, 0x19, 0x1A, 0x1C, 0x1E, 0x20,
        0x2A, 0x2B), or None when it is not a meter poll."""
        m = self.meters
        four = lambda *values: b"".join(bcd(v, 4) for v in values)  # noqa: E731
        single = {
            0x10: lambda: self.credits("cancelled_credits"),
            0x11: lambda: self.credits("coin_in"),
            0x12: lambda: self.credits("coin_out"),
            0x13: self.drop,
            0x14: lambda: self.credits("jackpot"),
            0x15: lambda: m["games_played"],
            0x16: lambda: m["games_won"],
            0x17: lambda: m["games_lost"],
            0x1A: lambda: self.credits("current_credits"),
            0x20: lambda: m["bills_in"] // 100,  # dollars
            0x2A: lambda: 0,  # true coin in: no coin acceptor
            0x2B: lambda: 0,  # true coin out: no hopper
        }
        if command in single:
            return four(single[command]())
        if command == 0x0F:
            return four(
                self.credits("cancelled_credits"),
                self.credits("coin_in"),
                self.credits("coin_out"),
                self.drop(),
                self.credits("jackpot"),
                m["games_played"],
            )
        if command == 0x19:
            return four(
                self.credits("coin_in"), self.credits("coin_out"), self.drop(), self.credits("jackpot"),
                m["games_played"],
            )
        if command == 0x1C:
            return four(
                self.credits("coin_in"),
                self.credits("coin_out"),
                self.drop(),
                self.credits("jackpot"),
                m["games_played"],
                m["games_won"],
                m["door_opens"],  # the cabinet counts every door's openings together
                m["power_resets"],
            )
        if command == 0x1E:
            return four(*(self.bills(d) for d in BILL_DENOMINATIONS_1E))
        return None

    def selected(self, game_number: bytes, codes: bytes, per_game: Mapping[str, int] | None) -> bytes:
        """0x2F: the game number, then each code with its value (4 BCD; 5 for cents meters).
        A code this cabinet does not keep is answered with zero."""
        table = self.by_code() if per_game is None else self.game_by_code(per_game)
        out = bytearray(game_number)
        for code in codes:
            value = table[code]() if code in table else 0
            out += bytes([code]) + bcd(value, 5 if code in CENTS_CODES else 4)
        return bytes(out)

    def extended(self, game_number: bytes, codes: bytes, per_game: Mapping[str, int] | None) -> bytes:
        """0x6F: the game number, then each 2-byte code (low byte first), its size and its value
        (5 bytes of BCD, the cabinet's 10 digits); a code it does not keep has size 0."""
        table = self.by_code() if per_game is None else self.game_by_code(per_game)
        out = bytearray(game_number)
        for i in range(0, len(codes) - 1, 2):
            code = int.from_bytes(codes[i : i + 2], "little")
            out += codes[i : i + 2]
            out += bytes([5]) + bcd(table[code](), 5) if code in table else b"\x00"
        return bytes(out)
