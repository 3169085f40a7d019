"""The win summary's lines (issue 16): which personal bests and streaks a game set, from the
statistics before and after it, in the player's language."""

from __future__ import annotations

from typing import Any

from app.i18n import translations
from app.store.counting import empty_kind, normal
from app.web.players.figures import bests_set

EN = translations("en")


def doc(**hm: int) -> dict[str, Any]:
    data = normal(None)
    data["k"]["HM"] = {**empty_kind(), **hm}
    return data


def test_a_first_win_says_so():
    before = doc(played=1)
    after = doc(played=1, won=1, streak=1, best_streak=1, best_ms=90_000, fewest=48)
    assert bests_set(before, after, "HM", True, EN) == ["Your first win at Half Moon!"]


def test_a_faster_win_in_a_streak_sets_a_best_time_and_a_best_streak():
    before = doc(
        played=3, won=2, streak=2, best_streak=2, best_ms=90_000, fewest=48, best_score=520
    )
    after = doc(played=4, won=3, streak=3, best_streak=3, best_ms=70_000, fewest=48, best_score=520)
    assert bests_set(before, after, "HM", True, EN) == [
        "New best time: 1:10.",
        "New best streak: 3 wins in a row.",
    ]


def test_a_streak_below_the_best_is_still_told():
    before = doc(won=5, streak=1, best_streak=4, best_ms=60_000, fewest=48, best_score=520)
    after = doc(won=6, streak=2, best_streak=4, best_ms=60_000, fewest=48, best_score=520)
    assert bests_set(before, after, "HM", True, EN) == ["2 wins in a row."]


def test_a_loss_with_a_better_score_sets_the_best_score_only():
    before = doc(played=1, lost=1, best_score=100)
    after = doc(played=2, lost=2, best_score=140)
    assert bests_set(before, after, "HM", False, EN) == ["New best score: 140."]


def test_a_daily_win_extends_the_daily_streak_in_every_language():
    before = doc(won=1, streak=1, best_streak=1, best_ms=5, fewest=48, best_score=520)
    after = doc(won=2, streak=1, best_streak=1, best_ms=5, fewest=48, best_score=520)
    after["daily"] = {"last": "2026-12-02", "streak": 2, "best": 2, "days": []}
    before["daily"] = {"last": "2026-12-01", "streak": 1, "best": 1, "days": []}
    assert bests_set(before, after, "HM", True, EN) == ["Daily streak: 2 days."]
    assert bests_set(before, after, "HM", True, translations("tr")) == ["Günlük seri: 2 gün."]
    assert bests_set(before, after, "HM", True, translations("bg")) == ["Дневна серия: 2 дни."]


def test_a_first_win_is_per_game_and_level():
    """Issue 43: Seahaven Hard after a win on Easy is the first win at Hard, and says which."""
    before = normal(None)
    before["k"]["SH-C4"] = {**empty_kind(), "played": 1, "won": 1, "best_ms": 60_000, "fewest": 90}
    after = normal(None)
    after["k"] = {
        "SH-C4": before["k"]["SH-C4"],
        "SH-C1": {**empty_kind(), "played": 1, "won": 1, "best_ms": 80_000, "fewest": 85},
    }
    assert bests_set(before, after, "SH-C1", True, EN) == [
        "Your first win at Seahaven Towers, Hard (1 cell)!"
    ]
    tr, bg = translations("tr"), translations("bg")
    hard_tr = tr.gettext("Seahaven Towers, Hard (1 cell)")
    hard_bg = bg.gettext("Seahaven Towers, Hard (1 cell)")
    assert bests_set(before, after, "SH-C1", True, tr) == [
        f"{hard_tr} oyunundaki ilk galibiyetiniz!"
    ]
    assert bests_set(before, after, "SH-C1", True, bg) == [f"Първата ви победа в {hard_bg}!"]
    easy_again = normal(None)
    easy_again["k"]["SH-C4"] = {**before["k"]["SH-C4"], "played": 2, "won": 2}
    assert bests_set(before, easy_again, "SH-C4", True, EN) == []
