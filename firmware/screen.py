"""What the operator display shows, as data: the controller builds a `Screen`, a pure
renderer draws it at the display's size. Texts in a Screen are already translated."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Screen:
    kind: str                 # menu | amount | confirm | message | speaking | auction | private | payday | ranking | error | grid
    title: str                # first line: whose turn it is / what the box expects
    lines: tuple = ()         # body lines (summary, breakdown, prices...)
    items: tuple = ()         # menu entries, for kind == "menu"
    selected: int = 0         # highlighted entry, or the position in a long body
    footer: str = ""          # key hints, e.g. "OK valider  < retour"
    status: str = ""          # degraded parts, e.g. "! tableau" (always drawn when set)
    highlight: int | None = None  # seat lit / answering, when relevant
