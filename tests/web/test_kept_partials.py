"""Parts of a page drawn once and kept (issue 48 item 1, ``Renderer.kept``): the settings panel,
a fresh deal's how-to-play. Kept for the values they depend on, they still show each player
their own token, settings and page: two players of one worker never see each other's."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.web.html import parse

SH = "/seahaven/SH1-C4-AAAAAAB"


def page(client: TestClient, url: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """The page's one token (every form's), its settings switches (checked or not) and its
    how-to-play offers (pressed or not)."""
    doc = parse(client.get(url).text)
    tokens = {field.attrs["value"] for field in doc.find_all("input", name="token")}
    assert len(tokens) == 1, tokens
    form = doc.by_id("settings-form")
    switches = {
        name: "checked" if "checked" in box.attrs else "off"
        for name in ("move_errors", "placement_help", "hints", "zen", "sound")
        for box in form.find_all("input", type="checkbox", name=name)
    }
    offers = {
        button.attrs["name"]: button.attrs["aria-pressed"]
        for ident in ("howto-move-errors", "howto-placement-help")
        for button in doc.find_all("button", id=ident)
    }
    nexts = {field.attrs["value"] for field in doc.find_all("input", name="next")}
    assert nexts == {url.partition("?")[0]}, nexts
    return tokens.pop(), switches, offers


SWITCHES = ("move_errors", "placement_help", "hints", "zen", "sound")


def test_two_players_each_see_their_own_token_settings_and_page(app):
    with (
        TestClient(app, base_url="http://testserver", follow_redirects=False) as one,
        TestClient(app, base_url="http://testserver", follow_redirects=False) as two,
    ):
        first, _, _ = page(one, SH)
        second, _, _ = page(two, SH)
        assert first != second
        for name in SWITCHES:  # the players differ by this one setting
            chosen = {other: "on" if other == name else "off" for other in SWITCHES}
            saved = two.post("/settings", data={"token": second, "next": SH, **chosen})
            assert saved.status_code == 303, saved.text
            for url in (SH, "/faq", "/stats", f"{SH}?howto=1"):
                token, switches, offers = page(one, url)
                assert token == first
                assert switches == dict.fromkeys(SWITCHES, "off"), (name, url)
                assert set(offers.values()) <= {"false"}
                token, switches, offers = page(two, url)
                assert token == second
                assert switches == {
                    other: "checked" if other == name else "off" for other in SWITCHES
                }, (name, url)
                if url.startswith(SH):
                    pressed = {
                        offer: "true" if offer == name else "false"
                        for offer in ("move_errors", "placement_help")
                    }
                    assert offers == pressed, (name, url)
