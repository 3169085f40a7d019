"""The shuffle: a fixed generator, unbiased bounds, and golden deals that must never change."""

from collections import Counter

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.rng import SplitMix64, seed_for, shuffle, shuffled_cards


def test_splitmix64_matches_the_reference_sequence():
    rng = SplitMix64(1234567)
    # Reference outputs of SplitMix64 for seed 1234567 (the C reference implementation).
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_bounded_is_in_range_and_roughly_uniform():
    rng = SplitMix64(99)
    counts = Counter(rng.bounded(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < n < 11_000 for n in counts.values())


def test_bounded_rejects_the_biased_tail():
    class Scripted(SplitMix64):
        def __init__(self, values):
            super().__init__(0)
            self.values = list(values)

        def next(self):
            return self.values.pop(0)

    # 2^64 − 1 lies in the incomplete last block for bound 3: it must be redrawn.
    rng = Scripted([(1 << 64) - 1, 7])
    assert rng.bounded(3) == 1
    assert rng.values == []


def test_shuffle_is_a_permutation():
    items = list(range(104))
    shuffle(items, SplitMix64(5))
    assert sorted(items) == list(range(104))
    assert items != list(range(104))


def test_seed_includes_game_and_number_but_not_variant():
    sh4, sh1 = DealCode.parse("SH1-C4-AAAAAJ2"), DealCode.parse("SH1-C1-AAAAAJ2")
    assert seed_for(sh4) == seed_for(sh1)
    assert shuffled_cards(sh4) == shuffled_cards(sh1)
    assert seed_for(DealCode.parse("HM1-N-AAAAAJ2")) != seed_for(sh4)


def test_a_deal_is_the_same_every_time():
    code = DealCode.parse("HM1-N-ABCDEFG")
    assert shuffled_cards(code) == shuffled_cards(code)
    assert len(shuffled_cards(code)) == 104
    assert Counter(shuffled_cards(code)) == Counter(dict.fromkeys(set(shuffled_cards(code)), 2))


# Golden Half Moon deals: piles 1–12 bottom → top, then R1–R8. A change here means a deal
# code would deal other cards than it did: never edit these, bump the dealing version.
GOLDEN_HALF_MOON = {
    "HM1-N-AAAAAAA": [
        "10D 10D 2C AS 9D 4D 6C AC",
        "6H 10C 2D 3C 7D 2D JD 9C",
        "8C 4H 4D 7H 6C 8S 10S 5S",
        "JH 3C 2C 7C KS AD JS 9D",
        "AC JD 3H 10H 6S 6H 7H 9H",
        "8H KD 9S JC KC 8S 6D QD",
        "QS QC 6D 7S QH 6S 8H 5H",
        "AH 3S AS KC 2H KH JH QS",
        "KS 5D 3H 10S 4C 5S 4S 4C",
        "5C 5C 10H AH 9S KD 8D 3S",
        "4H 2H 2S JS 7D 8C 10C 9H",
        "QC 3D KH 9C 8D QH JC AD",
        "7C 2S QD 7S 3D 5D 5H 4S",
    ],
    "HM1-N-AAAAAAB": [
        "KD JD 9H 7C 8H 9H 10S 3H",
        "10H 8C 3S JC KH QS 9D 5D",
        "4C 5H 4S 6H 6S 6C 2D KC",
        "5S 3C 8S 5C 7H JH 2C 4D",
        "10C 6D 2C 6S AC 4S 4D 8C",
        "QH QD QC 3D 5S 5H AS 3D",
        "KS 7S 8D 3C 4H JH 5D KH",
        "7D 2H 9C 8H 5C 10H AC 2H",
        "6H 4C AH 6D KC 10C JD KD",
        "8D QD JS QS 7H 10D 10D 7S",
        "3H 2S QC 3S AD 7D 2D AH",
        "AS JS 9S 4H QH 9D 10S 2S",
        "9S 7C 8S 9C 6C AD JC KS",
    ],
    "HM1-N-7777777": [
        "3H 6H QS 10H 4H 7H 2D AC",
        "2S 3H KC QH KS 6H 6S 3D",
        "4D KD 4C 7S 5C AD QD JC",
        "8H 9H 10H 10C 3C 3C 7D AH",
        "9D JS 7C 2S 7H 6C KS QC",
        "8D 4D JD 8C KH KH 4H 10D",
        "5H 10C 7C 8S 6C 5D 9D AS",
        "AS JH QH 3S 8H 5S 9C JH",
        "4C AH AC JS AD QC 2C 6D",
        "5C QS KC QD 8C 3D KD 5D",
        "JD 9C 8S 8D 4S 9H 2H 10D",
        "4S 10S 2D JC 5S 2H 10S 6D",
        "9S 2C 6S 7S 5H 9S 3S 7D",
    ],
}


def _layout(code):
    position = deal(DealCode.parse(code))
    return [" ".join(map(str, pile)) for pile in position.piles] + [
        " ".join(map(str, position.reserve))
    ]


@pytest.mark.parametrize("code", sorted(GOLDEN_HALF_MOON))
def test_golden_half_moon_deals_never_change(code):
    assert _layout(code) == GOLDEN_HALF_MOON[code]
