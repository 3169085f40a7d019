"""Run in a copy of the project with One Pile plugged in (tests/test_third_game.py): the toy
game is dealt, played to a win, replayed and listed, and both real games still work. Prints
one line per check; exits non-zero on the first that fails."""

from __future__ import annotations

import re
import sys

from fastapi.testclient import TestClient

from app.config import Config
from app.main import create_app

TOKEN = re.compile(r'name="token" value="([^"]+)"')
CARD = re.compile(r'name="card" value="([^"]+)"')


def check(what: str, ok: bool) -> None:
    print(("ok " if ok else "FAILED ") + what)
    if not ok:
        sys.exit(1)


def main(db: str) -> None:
    app = create_app(Config(store=db, rate_writes="off", rate_new="off"))
    with TestClient(app, follow_redirects=False) as client:
        new = client.get("/one-pile")
        location = new.headers.get("location", "")
        check(
            "GET /one-pile deals a One Pile code",
            new.status_code == 303 and "/one-pile/OP1-N-" in location,
        )
        page = client.get(location)
        check(
            "its page draws the pile",
            page.status_code == 200 and 'data-place="pile-1"' in page.text,
        )
        for _ in range(5):
            token, card = TOKEN.search(page.text), CARD.search(page.text)
            assert token and card
            answer = client.post(
                f"{location}/tap", data={"place": "pile-1", "card": card[1], "token": token[1]}
            )
            check("a tap answers 303", answer.status_code == 303)
            page = client.get(location)
        check("five taps win", 'data-state="won"' in page.text)
        replay = re.search(r'href="(/replay/[A-Za-z0-9_-]{22})"', page.text)
        check("the win has a replay", replay is not None)
        assert replay
        check("the replay steps", client.get(replay[1] + "?step=3").status_code == 200)
        check(
            "its text replays the five moves", client.get(replay[1] + ".txt").text.count("\nt") >= 1
        )
        for url in ("/rules/one-pile", "/examples/one-pile?step=2", "/stats", "/", "/examples"):
            check(f"GET {url}", client.get(url).status_code == 200)
        check("the home page names it", "One Pile" in client.get("/").text)
        check("/stats lists its deal", "One Pile" in client.get("/stats").text)
        daily = client.get("/daily/one-pile").headers.get("location", "")
        check("it has a daily deal", "/one-pile/OP1-N-" in daily)
        token, card = TOKEN.search(page.text), CARD.search(client.get(daily).text)
        assert token and card
        answers = {
            place: client.post(
                f"{daily}/tap",
                data={"place": place, "card": card[1], "token": token[1]},
                headers={"HX-Request": "true"},
            )
            for place in ("pile-1", "pile-9")
        }
        tapped, forged = answers["pile-1"], answers["pile-9"]
        check(
            "an htmx tap answers the board",
            tapped.status_code == 200 and 'data-count="4"' in tapped.text,
        )
        check(
            "a forged place is refused with the accepted form",
            forged.status_code == 422 and "A One Pile place is pile-1." in forged.text,
        )
        check(
            "Half Moon still deals",
            "/half-moon/HM1-N-" in client.get("/half-moon").headers.get("location", ""),
        )
        check("Seahaven still opens", client.get("/seahaven").status_code in (200, 303))


if __name__ == "__main__":
    main(sys.argv[1])
