"""The help pages say what the app tells about winning a deal, and when (issue 43 item 6): no
hint and nothing during play; after a game ends without a win, where the win slipped away.
They used to say "there is no solver" and "the app does not tell you whether a deal can be
won" while every lost game is analysed."""

from __future__ import annotations

import html
import re

import pytest

SAID = {
    "en": {
        "/faq": ("Not while you play", "After a game ends without a win", "Try from move k"),
        "/rules/half-moon": (
            "Hints come only when you ask",
            "while you play the app does not tell you",
            "Only after a game ends",
        ),
        "/rules/seahaven": (
            "Hints come only when you ask",
            "the app says only when no useful move is left",
            "after a game ends",
        ),
    },
    "tr": {
        "/faq": ("Oyun sürerken hayır", "bittikten sonra", "k. hamleden deneyin"),
        "/rules/half-moon": (
            "İpucu yalnızca istediğinizde verilir",
            "oyun sürerken uygulama",
            "kazanılmadan bittikten sonra",
        ),
        "/rules/seahaven": (
            "İpucu yalnızca istediğinizde verilir",
            "yalnızca işe yarar hamle kalmadığını",
            "bittikten sonra",
        ),
    },
    "bg": {
        "/faq": ("Не и докато играете", "След като", "Опитайте от ход k"),
        "/rules/half-moon": (
            "Подсказка има само когато я поискате",
            "докато играете, приложението не казва",
            "Едва след като",
        ),
        "/rules/seahaven": (
            "Подсказка има само когато я поискате",
            "казва само кога не остава полезен ход",
            "след като игра завърши",
        ),
    },
}
NEVER = (
    "There is no hint button",
    "İpucu düğmesi yoktur",
    "Няма бутон за подсказка",
    "there is no solver",
    "does not tell you whether a deal can be won",
    "çözücü ve ipucu yoktur",
    "Çözücü ya da ipucu",
    "няма алгоритъм за решаване",
    "Няма алгоритъм за решаване",
)


@pytest.mark.parametrize("lang", SAID)
def test_the_help_pages_say_the_app_tells_after_the_end_only(client, lang):
    for path, phrases in SAID[lang].items():
        response = client.get(path, headers={"Accept-Language": lang})
        assert response.status_code == 200
        main = response.text[response.text.index("<main") :]
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", main)).split())
        for phrase in phrases:
            assert phrase in text, (lang, path, phrase)
        for wrong in NEVER:
            assert wrong not in text, (lang, path, wrong)
