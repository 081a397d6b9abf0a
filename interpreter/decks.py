"""Built-in deck templates: card sets that many games share, described as plain data.

A template yields card names, attribute values, the attribute types and the enums it needs.
Only the standard French deck lives here; any other deck is written in the ruleset itself
(``cards { attr …; for …: card "…" … }``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SUITS = ["♠", "♥", "♦", "♣"]
SUIT_LABELS = ["spades | スペード", "hearts | ハート", "diamonds | ダイヤ", "clubs | クラブ"]
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
ASCII_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


@dataclass
class DeckData:
    names: list[str]
    attrs: dict[str, list[Any]]                 # attribute → value per card (enum members as names)
    attr_types: dict[str, str]                  # attribute → type name ("int", "bool", an enum name)
    enums: dict[str, list[tuple[str, str]]] = field(default_factory=dict)   # enum → [(member, label)]
    aliases: dict[str, str] = field(default_factory=dict)                   # ASCII alias → name
    labels: dict[str, str] = field(default_factory=dict)                    # name → how players read it
    copy_attrs: tuple[str, ...] = ()            # attributes that tell copies of one face apart, not the face


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def standard(jokers: int = 0, decks: int = 1, ranks: list[int] | None = None) -> DeckData:
    """``decks`` × 52 cards ♠♥♦♣ × A–K, plus ``jokers`` Jokers named JK1, JK2, … (in all, not per deck).
    ``ranks`` strips the deck to those ranks (``[1] + (6..13)``: the 36 cards of Durak), in rank order.

    Attributes: ``suit`` (Suit, none for Jokers), ``rank`` (A=1 … K=13, Joker 0), ``colour``
    (red/black; JK1 is the red Joker, JK2 the black one, further Jokers alternate), ``joker``,
    ``copy`` (which deck a card comes from, 1 …; Jokers 1). The first deck's cards keep the plain
    names; a further deck's carry its number (``♠A#2``), as names must tell cards apart, and are
    labelled by their face (``♠A``): players read and type them as the cards they are.
    """
    names: list[str] = []
    suit: list[Any] = []
    rank: list[Any] = []
    colour: list[Any] = []
    joker: list[Any] = []
    copy: list[Any] = []
    aliases: dict[str, str] = {}
    labels: dict[str, str] = {}
    for k in range(1, max(decks, 1) + 1):
        tag = "" if k == 1 else f"#{k}"
        for s in SUITS:
            for r in sorted(set(ranks)) if ranks is not None else range(1, 14):
                n = f"{s}{rank_name(r)}{tag}"
                names.append(n)
                if tag:
                    labels[n] = f"{s}{rank_name(r)}"
                aliases[f"{ASCII_SUITS[s]}{rank_name(r)}{tag}"] = n
                aliases[f"{ASCII_SUITS[s]}{r}{tag}"] = n
                suit.append(s)
                rank.append(r)
                colour.append("red" if s in ("♥", "♦") else "black")
                joker.append(False)
                copy.append(k)
    for i in range(jokers):
        n = f"JK{i + 1}"
        names.append(n)
        aliases[f"Joker{i + 1}"] = n
        suit.append(None)
        rank.append(0)
        colour.append("red" if i % 2 == 0 else "black")
        joker.append(True)
        copy.append(1)
    if jokers == 1:
        aliases["Joker"] = "JK1"
    return DeckData(
        names=names,
        attrs={"suit": suit, "rank": rank, "colour": colour, "joker": joker, "copy": copy},
        attr_types={"suit": "Suit", "rank": "int", "colour": "Colour", "joker": "bool", "copy": "int"},
        enums={"Suit": list(zip(SUITS, SUIT_LABELS, strict=True)),
               "Colour": [("red", "red | 赤"), ("black", "black | 黒")]},
        aliases=aliases,
        labels=labels,
        copy_attrs=("copy",),
    )


def ascii_aliases(names: list[str]) -> dict[str, str]:
    """A custom deck's cards named with a suit symbol are typed as a standard deck's are: ``S6`` for
    ``♠6`` (when no card is named so already)."""
    out: dict[str, str] = {}
    for n in names:
        if n[:1] in ASCII_SUITS and len(n) > 1:
            alias = ASCII_SUITS[n[0]] + n[1:]
            if alias not in names:
                out[alias] = n
    return out


# template → (its function, {argument: (least, most, a list of them)}): whole numbers, checked where the
# ruleset gives them
TEMPLATES = {"standard": (standard, {"jokers": (0, 10_000, False), "decks": (1, 100, False),
                                     "ranks": (1, 13, True)})}
