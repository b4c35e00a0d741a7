"""The deck of §1.3 and the character table of §11."""

from __future__ import annotations

from collections import Counter

from sanguosha.engine.data import (CARD_TYPES, CARDS, CHARACTERS, EX_CARDS, LORD_CHARACTERS,
                                   deck_numbers, identity_counts)


def test_deck_has_108_numbered_cards():
    assert sorted(CARDS) == list(range(1, 109))


def test_base_deck_has_every_suit_rank_pair_exactly_twice():
    pairs = Counter((c.suit, c.rank) for c in CARDS.values() if c.set == "base")
    assert len(pairs) == 52 and set(pairs.values()) == {2}


def test_each_suit_has_27_cards():
    assert Counter(c.suit for c in CARDS.values()) == {"spade": 27, "heart": 27, "club": 27,
                                                        "diamond": 27}


def test_ex_cards_are_the_four_named():
    ex = {(CARDS[n].id, CARDS[n].suit, CARDS[n].rank) for n in EX_CARDS}
    assert ex == {("ice_sword", "spade", 2), ("nioh_shield", "club", 2),
                  ("lightning", "heart", 12), ("nullification", "diamond", 12)}


def test_copies_and_totals_match_section_1_2():
    counts = Counter(c.id for c in CARDS.values())
    assert counts["slash"] == 30 and counts["jink"] == 15 and counts["peach"] == 8
    assert counts["nullification"] == 4 and counts["lightning"] == 2
    kinds = Counter(c.kind for c in CARDS.values())
    assert kinds["basic"] == 53 and kinds["trick"] == 31 and kinds["delayed"] == 5
    assert kinds["weapon"] == 10 and kinds["armor"] == 3
    assert kinds["plus_horse"] == 3 and kinds["minus_horse"] == 3
    assert set(counts) == set(CARD_TYPES)


def test_standard_deck_drops_the_ex_cards():
    assert len(deck_numbers("standard")) == 104 and len(deck_numbers("standard_ex")) == 108
    assert not set(deck_numbers("standard")) & EX_CARDS


def test_characters_table():
    assert len(CHARACTERS) == 25
    kingdoms = Counter(c.kingdom for c in CHARACTERS.values())
    assert kingdoms == {"wei": 7, "shu": 7, "wu": 8, "qun": 3}
    assert set(LORD_CHARACTERS) == {"caocao", "liubei", "sunquan"}
    assert CHARACTERS["zhugeliang"].max_hp == 3 and CHARACTERS["daqiao"].gender == "F"


def test_identity_table_and_variants():
    assert identity_counts(4) == (1, 1, 1, 1)
    assert identity_counts(5) == (1, 1, 2, 1)
    assert identity_counts(8) == (1, 2, 4, 1)
    assert identity_counts(10) == (1, 3, 4, 2)
    assert identity_counts(6, "double_renegade") == (1, 1, 2, 2)
    assert identity_counts(8, "double_renegade") == (1, 2, 3, 2)
    assert identity_counts(10, "single_renegade_10") == (1, 3, 5, 1)
    for n in range(2, 11):
        assert sum(identity_counts(n)) == n
