"""Sound over HTTP (issue 27): off by default (no script, no file, no mark in any answer);
with Sound on, each answer says what a player hears — a removal or a card home, a refusal, a
win — and the files are small, short and quiet."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.halfmoon import place_name as hm_place
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import COLUMNS, FOUNDATIONS, Move, Outcome, Seahaven
from app.engine.seahaven import place_name as sh_place
from app.engine.seahaven.solver import solve_code
from tests.web.html import parse

HM = "HM1-N-AAAAAAB"
SH = "SH1-C4-AAAAAJ2"
SOUNDS = Path(__file__).resolve().parents[2] / "static" / "sounds"


def sound_on(client, player, code: str = HM, game: str = "half-moon"):
    p = player(code) if game == "half-moon" else None
    if p is None:
        from tests.web.conftest import Player

        p = Player(client, f"/seahaven/{code}")
        p.open()
    response = client.post("/settings", data={"sound": "on", "token": p.token, "next": "/"})
    assert response.status_code == 303
    p.open()
    return p


def heard(response) -> str | None:
    return parse(response.text).by_id("status").attrs.get("data-sound")


def test_sound_is_off_by_default_no_script_no_file_no_mark(client, player):
    p = player()
    assert p.doc.find("html").attrs["data-sound"] == "off"
    scripts = [s.attrs["src"] for s in p.doc.find_all("script")]
    assert not any("sound" in src for src in scripts)
    # the files are only named, on the settings' script, which adds Sound's script when the
    # player turns it on (issue 35): nothing on the page loads one
    assert not any(".wav" in str(v) for e in p.doc.iter() for k, v in e.attrs.items() if k == "src")
    assert p.doc.find_all("audio") == []
    line = solve(deal(DealCode.parse(HM))).line
    for place in line[0]:
        response = p.tap(hm_place(place))
    assert "data-sound" not in response.text.replace('data-sound="off"', "")


def test_with_sound_on_the_page_loads_the_player_and_names_the_files(client, player):
    p = sound_on(client, player)
    assert p.doc.find("html").attrs["data-sound"] == "on"
    tag = next(s for s in p.doc.find_all("script") if "/js/sound." in s.attrs["src"])
    for name in ("card", "refusal", "win"):
        response = client.get(tag.attrs[f"data-{name}"])
        assert response.status_code == 200 and response.headers["content-type"] == "audio/wav"
        assert response.content == (SOUNDS / f"{name}.wav").read_bytes()


def test_half_moon_removal_refusal_and_win_each_say_their_sound(client, player):
    p = sound_on(client, player)
    p.tap("pile-1")  # 3♥
    assert heard(p.tap("pile-2")) == "refusal"  # 5♦: 8, not 11
    assert heard(p.tap("pile-1")) is None  # a selection makes no sound
    p.tap("pile-1")
    line = solve(deal(DealCode.parse(HM))).line
    sounds = []
    for removal in line:
        for place in removal:
            response = p.tap(hm_place(place))
        sounds.append(heard(response))
    assert sounds == ["card"] * 47 + ["win"]
    assert heard(p.post("undo")) is None


def test_seahaven_a_card_home_sounds_a_column_move_does_not(client, player):
    code = DealCode.parse(SH)
    p = sound_on(client, player, SH, "seahaven")
    mirror = Seahaven(code)
    line = solve_code(code).line
    sounds = []
    for source, count, target in line:
        position = mirror.position
        card = position.columns[source][-count] if source in COLUMNS else position.top(source)
        fields = {"from": sh_place(source), "card": str(card), "to": sh_place(target)}
        sounds.append((target in FOUNDATIONS, heard(p.post("move", **fields))))
        mirror.play(Move(source, count, target))
    assert sounds[-1] == (True, "win")
    assert all(sound == ("card" if home else None) for home, sound in sounds[:-1])
    assert any(home for home, _ in sounds[:-1]) and not all(home for home, _ in sounds)
    # a move the rules refuse (the engine says which): the refusal's sound
    p.post("restart", confirm="yes")
    source, target, card = refused_move(code)
    response = p.post(
        "move", **{"from": sh_place(source), "card": str(card), "to": sh_place(target)}
    )
    assert heard(response) == "refusal"


def refused_move(code: DealCode):
    """A top card to another column where the rules refuse it, at the deal."""
    for source in COLUMNS:
        for target in COLUMNS:
            game = Seahaven(code)
            card = game.position.columns[source][-1]
            if source != target and game.move(source, card, target, 0).outcome is Outcome.REFUSED:
                return source, target, card
    raise AssertionError("no refused move")


def wav(name: str) -> tuple[int, int, int, list[int]]:
    data = (SOUNDS / name).read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    at, fmt, samples = 12, None, b""
    while at < len(data):
        kind, size = data[at : at + 4], struct.unpack("<I", data[at + 4 : at + 8])[0]
        body = data[at + 8 : at + 8 + size]
        if kind == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif kind == b"data":
            samples = body
        at += 8 + size + (size & 1)
    assert fmt is not None
    _, channels, rate, _, _, bits = fmt
    values = list(struct.unpack(f"<{len(samples) // 2}h", samples))
    return channels, rate, bits, values


@pytest.mark.parametrize(("name", "longest"), [("card", 0.2), ("refusal", 0.2), ("win", 1.0)])
def test_the_sounds_are_short_quiet_mono_files(name, longest):
    channels, rate, bits, values = wav(f"{name}.wav")
    assert (channels, rate, bits) == (1, 16000, 16)
    assert 0.05 < len(values) / rate <= longest
    peak = max(abs(v) for v in values) / 32768
    assert 0.05 < peak <= 0.25  # audible, and quiet: at most about -12 dB below full scale
    assert (SOUNDS / f"{name}.wav").stat().st_size < 32_000
