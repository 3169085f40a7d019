"""English, Turkish and Bulgarian: negotiation, the switch, labels, plurals, card names, catalogs."""

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.engine.cards import Card
from app.engine.game import Refusal
from app.engine.halfmoon import HalfMoon, position_from_data
from app.engine.halfmoon import Reason as HalfMoonReason
from app.engine.seahaven.rules import Reason as SeahavenReason
from app.i18n import LANGUAGES, card_name, translations
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
URL = f"/half-moon/{CODE}"
ROOT = Path(__file__).parents[2]


@pytest.fixture
def small_table(monkeypatch):
    """Pile 1 holds 2♠ under J♣; pile 8 holds seven cards; reserve 3 one; the rest are empty."""
    position = position_from_data(
        {
            "piles": [["2S", "JC"]]
            + [[]] * 6
            + [["AH", "2H", "3H", "4H", "5H", "6H", "QD"]]
            + [[]] * 4,
            "reserve": [None, None, "KH", None, None, None, None, None],
        }
    )
    monkeypatch.setattr(HalfMoon, "deal", classmethod(lambda cls, code: position))


def page(client, **headers):
    return parse(client.get(URL, headers=headers).text)


def labels(doc):
    return {
        e.attrs["data-place"]: e.find(class_="label").text for e in doc.find_all(data_place=True)
    }


def spoken(doc, place):
    return doc.find(data_place=place).find_all(aria_label=True)[0].attrs["aria-label"]


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("tr-TR,tr;q=0.9", "tr"),
        ("bg", "bg"),
        ("en-GB", "en"),
        ("de-DE", "en"),
        ("fr;q=0.9, bg;q=0.8", "bg"),
    ],
)
def test_the_language_follows_accept_language(client, accept, lang):
    assert page(client, **{"Accept-Language": accept}).find("html").attrs["lang"] == lang


def test_english_labels_plurals_and_card_names(client, small_table):
    doc = page(client)
    assert labels(doc)["pile-8"] == "pile 8, 7 cards"
    assert labels(doc)["pile-1"] == "pile 1, 2 cards"
    assert labels(doc)["reserve-3"] == "reserve 3, 1 card"
    assert labels(doc)["reserve-1"] == "reserve 1, 0 cards"
    assert spoken(doc, "pile-1") == "jack of clubs, pile 1, 2 cards"
    assert spoken(doc, "pile-8") == "queen of diamonds, pile 8, 7 cards"
    assert spoken(doc, "pile-2") == "pile 2, 0 cards"
    assert doc.find(data_card="JC").find(class_="rank").text == "J"
    assert doc.find(data_card="KH").find(class_="rank").text == "K"


def test_turkish_labels_plurals_and_card_names(client, small_table):
    doc = page(client, **{"Accept-Language": "tr"})
    assert doc.find("html").attrs["lang"] == "tr"
    assert labels(doc)["pile-8"] == "yığın 8, 7 kart"
    assert labels(doc)["reserve-3"] == "rezerv 3, 1 kart"
    assert spoken(doc, "pile-1") == "sinek vale, yığın 1, 2 kart"
    assert spoken(doc, "reserve-3") == "kupa papaz, rezerv 3, 1 kart"
    assert [doc.find(data_card=c).find(class_="rank").text for c in ("JC", "QD", "KH")] == [
        "V",
        "D",
        "R",
    ]


def test_bulgarian_labels_plurals_and_card_names(client, small_table):
    doc = page(client, **{"Accept-Language": "bg"})
    assert doc.find("html").attrs["lang"] == "bg"
    assert labels(doc)["pile-8"] == "купчина 8, 7 карти"
    assert labels(doc)["reserve-3"] == "резерв 3, 1 карта"
    assert labels(doc)["reserve-1"] == "резерв 1, 0 карти"
    assert spoken(doc, "pile-1") == "вале спатия, купчина 1, 2 карти"
    assert [doc.find(data_card=c).find(class_="rank").text for c in ("JC", "QD", "KH")] == [
        "V",
        "D",
        "R",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_is_a_sentence_with_its_full_stop(lang):
    """Issue 22: "The sum must be 11" lacked its full stop; every refusal of both games, with
    its limit where it names one, ends as the other messages do, in every language."""
    t = translations(lang)
    said = [Refusal(reason).explain(t) for reason in HalfMoonReason]
    said += [
        Refusal(reason, 3 if reason.takes_limit() else None).explain(t) for reason in SeahavenReason
    ]
    assert len(said) == len(HalfMoonReason) + len(SeahavenReason) >= 14
    assert [s for s in said if not s.endswith(".")] == []


def test_the_documents_own_words_for_settings_and_refusals():
    tr, bg = translations("tr"), translations("bg")
    assert tr.gettext("Move errors") == "Hamle hataları"
    assert tr.gettext("Placement help") == "Yerleştirme yardımı"
    assert tr.gettext("The sum must be 11.") == "Toplam 11 olmalıdır."
    assert (
        tr.gettext("You need a jack, a queen and a king.")
        == "Bir Vale, bir Kız ve bir Papaz gerekir."
    )
    assert bg.gettext("Move errors") == "Грешки при ход"
    assert bg.gettext("Placement help") == "Помощ при поставяне"
    assert bg.gettext("The sum must be 11.") == "Сборът трябва да е равен на 11."
    assert bg.gettext("You need a jack, a queen and a king.") == "Необходими са вале, дама и поп."
    assert card_name(Card.parse("JC"), tr) == "sinek vale"
    assert card_name(Card.parse("JC"), bg) == "вале спатия"
    assert card_name(Card.parse("JC"), translations("en")) == "jack of clubs"


def test_the_switch_is_on_every_page_and_remembered(client, player):
    p = player()
    for url in ("/", URL, "/half-moon/nonsense"):
        doc = parse(client.get(url).text)
        buttons = doc.find("form", class_="languages").find_all("button")
        assert [(b.attrs["value"], b.attrs["lang"], b.text) for b in buttons] == [
            ("en", "en", "English"),
            ("tr", "tr", "Türkçe"),
            ("bg", "bg", "Български"),
        ], url
    response = client.post("/settings", data={"lang": "bg", "token": p.token, "next": URL})
    assert response.headers["location"] == URL
    doc = page(client, **{"Accept-Language": "tr"})
    assert doc.find("html").attrs["lang"] == "bg"
    assert doc.find("button", value="bg").attrs["aria-current"] == "true"
    assert client.get("/no/such/page").text.count("Страницата не е намерена") >= 1


def test_move_errors_speak_the_players_language(client, player, monkeypatch):
    position = position_from_data({"piles": [["5S"], ["AH"]] + [[]] * 10, "reserve": [None] * 8})
    monkeypatch.setattr(HalfMoon, "deal", classmethod(lambda cls, code: position))
    p = player()
    client.post("/settings", data={"lang": "tr", "move_errors": "on", "token": p.token})
    p.open()
    p.tap("pile-1", "5S")
    p.tap("pile-2", "AH")
    assert p.status == "Toplam 11 olmalıdır."


def _extracted() -> set[tuple[str | tuple[str, str], str | None]]:
    found = set()
    keywords = {
        "_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "pgettext": ((1, "c"), 2),
        "N_": None,
    }
    for where, method in (("app", "python"), ("templates", "jinja2")):
        options = {"**.html": {"extensions": "jinja2.ext.i18n"}} if method == "jinja2" else {}
        for _file, _line, message, _comments, context in extract_from_dir(
            ROOT / where,
            method_map=[("**.py" if method == "python" else "**.html", method)],
            options_map=options,
            keywords=keywords,
        ):
            found.add((message, context))
    return found


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_interface_text_is_translated_in_the_catalog(lang):
    with (ROOT / f"app/locales/{lang}/LC_MESSAGES/messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    missing = []
    for message, context in _extracted():
        msgid = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(msgid, context=context)
        if (
            entry is None
            or entry.fuzzy
            or not all(entry.string if isinstance(entry.string, tuple) else [entry.string])
        ):
            missing.append(msgid)
    assert missing == []
    assert list(catalog.check()) == []
    extracted_ids = {(m[0] if isinstance(m, tuple) else m) for m, _ in _extracted()}
    stale = [
        m.id
        for m in catalog
        if m.id and (m.id[0] if isinstance(m.id, tuple) else m.id) not in extracted_ids
    ]
    assert stale == [], "texts no longer used: run make messages"


LETTERS = json.loads((ROOT / "seeds" / "card-letters.json").read_text("utf-8"))
"""How the rule documents print cards (``seeds/card-letters.json``: the legend, and each
Half Moon document's printed cards with the sentences that print them, cited by document name)."""
DOCUMENT = {"tr": "000_eab0d8a27d8cd792.txt", "bg": "001_e9307dc58d526daa.txt"}
RANKS = {"ace": 1, "jack": 11, "queen": 12, "king": 13}
READING_PAGES = ("/rules/half-moon", "/examples/half-moon", "/rules/seahaven", "/examples/seahaven")


@pytest.mark.parametrize("lang", DOCUMENT)
def test_card_faces_print_the_letters_of_the_rule_documents(client, lang):
    """Issue 22: a card's face in Turkish and Bulgarian prints the letters the document of its
    language prints (``V♣``, ``D♥``, ``R♥``, ``A♥``, with Latin letters, as the documents write
    them) — on all 52 faces of a board, and on the reading pages' diagrams and cascade."""
    document = LETTERS["documents"][lang]
    assert document["document"] == DOCUMENT[lang]
    text = "\n".join(document["sentences"])
    written = set(re.findall(r"(?<![\w])([^\W_]{1,2})([♠♥♦♣])", text))
    assert sorted(w + s for w, s in written) == document["cards"]
    letter_of = {RANKS[name]: letter for letter, name in LETTERS["legend"].items()}
    assert set(letter_of) == {1, 11, 12, 13}, letter_of
    # the documents print the court cards and the ace with exactly these letters
    assert {w for w, _ in written if not w.isdigit()} == {"V", "D", "R", "A"}
    headers = {"Accept-Language": lang}
    doc = parse(client.get("/seahaven/SH1-C4-AAAAAAB", headers=headers).text)
    faces = {
        e.attrs["data-card"]: e.find(class_="rank").text + e.find(class_="suit").text
        for e in doc.find_all(data_card=True)
    }
    assert len(faces) == 52
    for rank, letter in letter_of.items():
        code = {1: "A", 11: "J", 12: "Q", 13: "K"}[rank]
        assert {faces[f"{code}{suit}"][:-1] for suit in "SHDC"} == {letter}, (code, faces)
    # every card the document prints is a face the board prints, letter for letter
    assert {w + s for w, s in written} <= set(faces.values())
    printed = {str(n) for n in range(2, 11)} | set(letter_of.values())
    for path in READING_PAGES:
        ranks = {
            e.text for e in parse(client.get(path, headers=headers).text).find_all(class_="rank")
        }
        assert ranks and ranks <= printed, (path, ranks - printed)
