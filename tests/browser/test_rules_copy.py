"""The page's copy of the rules (``static/js/rules/``) against the engine (issue 32, item 2): the
same deals, then random actions of both games — taps on cards that are there, on covered and
stale cards and on empty places, double taps, drags, Send all home, Undo, Redo, Restart — from
positions reached by random play, on every Seahaven cell count. After every action both sides
must show the same board, selection, score, move count, Undo / Redo, Send all home and ending,
and answer with the same outcome, move and refusal.

The JavaScript runs in the Debian Chromium the other browser tests use (the modules are served
by the application, as a page loads them), all cases in one ``page.evaluate``."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from playwright.sync_api import Page

from app.engine.cards import Card, fresh_decks
from app.engine.codes import DealCode
from app.engine.halfmoon import PLACES, HalfMoon, Removal
from app.engine.halfmoon import deal as hm_deal
from app.engine.halfmoon.solver import solve as hm_solve
from app.engine.seahaven import CELLS, COLUMNS, FOUNDATIONS, Seahaven, home_line
from app.engine.seahaven.solver import solve_code

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CASES = 200
"""Games a side; each plays ACTIONS actions (10,000 positions and actions a game)."""
ACTIONS = 50
DECK = [str(card) for card in fresh_decks(1)]

Action = list[Any]


def random_code(rng: random.Random, game: str, variant: str) -> str:
    return f"{game}1-{variant}-" + "".join(rng.choice(ALPHABET) for _ in range(7))


# --- Half Moon -----------------------------------------------------------------------------------


def hm_state(game: HalfMoon) -> str:
    position = game.position
    return json.dumps(
        [
            [[str(card) for card in pile] for pile in position.piles],
            [None if card is None else str(card) for card in position.reserve],
            list(game.selection),
            game.score,
            game.move_count,
            game.status().value,
            game.can_undo(),
            game.can_redo(),
        ],
        separators=(",", ":"),
    )


def history_action(roll: float) -> Action | None:
    """Undo, Redo or Restart for the lowest rolls (both games alike), else ``None``."""
    if roll < 0.04:
        return ["undo"]
    if roll < 0.07:
        return ["redo"]
    if roll < 0.075:
        return ["restart"]
    return None


def hm_action(rng: random.Random, game: HalfMoon) -> Action:
    roll = rng.random()
    if (history := history_action(roll)) is not None:
        return history
    position = game.position
    if roll < 0.12:  # a card that is not there (another tab moved), or an empty place
        return ["tap", rng.randrange(PLACES), rng.choice(DECK)]
    # mostly a card that can combine with the selection, so removals happen
    tops = [(p, card) for p in range(PLACES) if (card := position.top(p)) is not None]
    if not tops:
        return ["undo"]
    chosen = game.selected_cards()
    if chosen and rng.random() < 0.6:
        wanted = [
            (p, c)
            for p, c in tops
            if (not chosen[0].is_face and not c.is_face and c.rank + chosen[0].rank == 11)
            or (chosen[0].is_face and c.is_face and all(c.rank != x.rank for x in chosen))
        ]
        if wanted:
            place, card = rng.choice(wanted)
            return ["tap", place, str(card)]
    place, card = rng.choice(tops)
    return ["tap", place, str(card)]


def hm_play(game: HalfMoon, action: Action) -> list[Any]:
    verb = action[0]
    if verb == "tap":
        result = game.tap(action[1], Card.parse(action[2]), now=0)
        move = list(result.move) if result.move is not None else None
        refusal = result.refusal.key if result.refusal is not None else None
        return [result.outcome.value, move, refusal]
    if verb == "undo":
        return [game.undo(now=0)]
    if verb == "redo":
        return [game.redo(now=0)]
    game.restart()
    return [None]


# --- Seahaven ------------------------------------------------------------------------------------


def sh_state(game: Seahaven) -> str:
    position = game.position
    selection = game.selection
    return json.dumps(
        [
            [[str(card) for card in column] for column in position.columns],
            [None if card is None else str(card) for card in position.cells],
            list(position.foundations),
            None if selection is None else [selection[0], str(selection[1])],
            game.score,
            game.move_count,
            "won" if position.is_won() else "playing",
            game.can_undo(),
            game.can_redo(),
            home_line(position) is not None,
        ],
        separators=(",", ":"),
    )


def sh_places(game: Seahaven) -> list[int]:
    return [*COLUMNS, *CELLS[: game.cell_count], *FOUNDATIONS]


def sh_card_at(rng: random.Random, game: Seahaven, place: int) -> str | None:
    """A card a player could press at ``place``: any of a column's, else its top card."""
    position = game.position
    if place in COLUMNS and position.columns[place]:
        column = position.columns[place]
        depth = min(len(column), 1 + int(rng.expovariate(0.7)))
        return str(column[-depth])
    card = position.top(place)
    return None if card is None else str(card)


def sh_action(rng: random.Random, game: Seahaven) -> Action:
    roll = rng.random()
    if (history := history_action(roll)) is not None:
        return history
    if roll < 0.09:
        return ["home"]
    places = sh_places(game)
    if roll < 0.12:  # a card that is not there: another tab moved
        return [rng.choice(["tap", "auto", "double"]), rng.choice(places), rng.choice(DECK)]
    if roll < 0.3:  # a move the engine allows, as a drag
        legal = list(game.legal_moves())
        if legal:
            source, count, target = rng.choice(legal)
            position = game.position
            card = position.columns[source][-count] if source in COLUMNS else position.top(source)
            return ["move", source, str(card), target]
    position = game.position
    empty = [c for c in COLUMNS if not position.columns[c]]
    if roll < 0.4 and empty:  # a whole run taken to an empty column: the group limit
        runs = [c for c in COLUMNS if position.run_length(c) > 1]
        if runs:
            source = rng.choice(runs)
            card = position.columns[source][-position.run_length(source)]
            return ["move", source, str(card), rng.choice(empty)]
    place = rng.choice(places)
    card = sh_card_at(rng, game, place)
    verb = rng.choices(["tap", "auto", "double", "move"], [6, 2, 1, 1])[0]
    if verb == "move":
        return ["move", place, card, rng.choice(places)]
    if verb != "tap" and card is None:
        verb = "tap"
    return [verb, place, card]


def sh_play(game: Seahaven, action: Action) -> list[Any]:
    verb = action[0]
    if verb in ("tap", "auto", "double"):
        card = None if action[2] is None else Card.parse(action[2])
        act = {"tap": game.tap, "auto": game.auto, "double": game.finish_double_tap}[verb]
        result = act(action[1], card, now=0)
    elif verb == "move":
        card = None if action[2] is None else Card.parse(action[2])
        result = game.move(action[1], card, action[3], now=0)
    elif verb == "home":
        result = game.send_home(now=0)
    elif verb == "undo":
        return [game.undo(now=0)]
    elif verb == "redo":
        return [game.redo(now=0)]
    else:
        game.restart()
        return [None]
    move = list(result.move) if result.move is not None else None
    refusal = result.refusal.key if result.refusal is not None else None
    return [result.outcome.value, move, refusal]


# --- both ----------------------------------------------------------------------------------------

GAMES = {
    "HM": (HalfMoon, hm_action, hm_play, hm_state, ["N"]),
    "SH": (Seahaven, sh_action, sh_play, sh_state, ["C4", "C2", "C1"]),
}


HM_WON = ("HM1-N-AAAAAAB", "HM1-N-AAAAAAC", "HM1-N-AAAAAAD")
"""Half Moon deals a solver clears: some games start well into a winning line."""


@functools.cache
def hm_solved(code: str) -> tuple[Removal, ...]:
    line = hm_solve(hm_deal(DealCode.parse(code))).line
    return tuple(line or ())


def winning_start(rng: random.Random, game_id: str, code: str, i: int) -> tuple[str, list[Action]]:
    """For some games, a deal and the first actions of a winning line (taps for Half Moon, drags
    for Seahaven), from half-way to the end: the endgame, empty columns, Send all home and the
    win are reached too, which random play alone seldom does."""
    if i % 5:
        return code, []
    if game_id == "HM":
        code = HM_WON[i // 5 % len(HM_WON)]
        line = hm_solved(code)
        position, actions = hm_deal(DealCode.parse(code)), []
        for removal in line[: rng.randint(len(line) // 2, len(line))]:
            actions += [["tap", p, str(position.top(p))] for p in removal]
            position = HalfMoon.result(position, removal)
        return code, actions
    if not code.startswith("SH1-C4"):
        return code, []
    moves = list(solve_code(DealCode.parse(code), 5000).line or ())
    game, actions = Seahaven(DealCode.parse(code)), []
    for move in moves[: rng.randint(len(moves) // 2, len(moves))]:
        source, count, target = move
        position = game.position
        card = position.columns[source][-count] if source in COLUMNS else position.top(source)
        actions.append(["move", source, str(card), target])
        game.play(move, now=0)
    return code, actions


def cases(game_id: str, seed: int) -> list[dict[str, Any]]:
    """Random games played through the engine: each action with what it answered and the
    board it left (the deal's board first)."""
    kind, pick, play, state, variants = GAMES[game_id]
    rng = random.Random(seed)
    made = []
    for i in range(CASES):
        code, start = winning_start(
            rng, game_id, random_code(rng, game_id, variants[i % len(variants)]), i
        )
        game = kind(DealCode.parse(code))
        if isinstance(game, Seahaven):
            game.defer_proofs()
        actions, answers, states = [], [], [state(game)]
        histories = [json.dumps(game.history_text(), separators=(",", ":"))]
        for n in range(len(start) + ACTIONS):
            action = start[n] if n < len(start) else pick(rng, game)
            actions.append(action)
            answers.append(json.dumps(play(game, action), separators=(",", ":")))
            states.append(state(game))
            histories.append(json.dumps(game.history_text(), separators=(",", ":")))
        made.append(
            {
                "code": code,
                "actions": actions,
                "answers": answers,
                "states": states,
                "histories": histories,
            }
        )
    return made


RUN = """async ([game, cases]) => {
  const {parseCode} = await import('/static/js/rules/deal.js');
  const rules = await import(game === 'HM' ? '/static/js/rules/halfmoon.js'
                                           : '/static/js/rules/seahaven.js');
  const text = (value) => JSON.stringify(value);
  const state = game === 'HM'
    ? (g) => text([g.position.piles, g.position.reserve, g.selection, g.score, g.moveCount,
                   g.status(), g.canUndo(), g.canRedo()])
    : (g) => text([g.position.columns, g.position.cells, g.position.foundations, g.selection,
                   g.score, g.moveCount, g.status(), g.canUndo(), g.canRedo(),
                   rules.homeLine(g.position) !== null]);
  const answer = (a) => [a.outcome, a.move === undefined ? null : a.move,
                         a.reason === undefined ? null
                         : a.limit === undefined ? a.reason : a.reason + '-' + a.limit];
  const play = (g, [verb, ...args]) => {
    if (verb === 'undo') return [g.undo()];
    if (verb === 'redo') return [g.redo()];
    if (verb === 'restart') { g.restart(); return [null]; }
    if (verb === 'home') return answer(g.sendHome());
    if (verb === 'auto') return answer(g.auto(...args));
    if (verb === 'double') return answer(g.finishDoubleTap(...args));
    if (verb === 'move') return answer(g.move(...args));
    return answer(g.tap(...args));
  };
  const Game = game === 'HM' ? rules.HalfMoon : rules.Seahaven;
  // the history as the board carries it (static/js/instant.js): written as the engine's
  // history_text, and read back into a new game, the same game (but the selection)
  const unselected = (g) => text([g.position, g.score, g.moveCount, g.canUndo(), g.canRedo()]);
  const history = (g, code, reloads) => {
    const written = g.written(rules.moveText);
    const again = new Game(parseCode(code));
    if (!again.load(...written, rules.playText) || unselected(again) !== unselected(g)) {
      reloads.push(text(written));
    }
    return text(written);
  };
  return cases.map(({code, actions}) => {
    const g = new Game(parseCode(code));
    const reloads = [];
    const answers = [], states = [state(g)], histories = [history(g, code, reloads)];
    for (const action of actions) {
      answers.push(text(play(g, action)));
      states.push(state(g));
      histories.push(history(g, code, reloads));
    }
    return {answers, states, histories, reloads};
  });
}"""


def first_difference(expected: dict[str, Any], got: dict[str, Any]) -> str:
    for i, (e, g) in enumerate(zip(expected["states"], got["states"], strict=True)):
        if e != g:
            before = expected["actions"][i - 1] if i else "the deal"
            return f"{expected['code']} after {i} actions (last {before}):\n  py {e}\n  js {g}"
    for i, (e, g) in enumerate(zip(expected["answers"], got["answers"], strict=True)):
        if e != g:
            action = expected["actions"][i]
            return f"{expected['code']} action {i} {action}:\n  py {e}\n  js {g}"
    for i, (e, g) in enumerate(zip(expected["histories"], got["histories"], strict=True)):
        if e != g:
            return f"{expected['code']} history after {i} actions:\n  py {e}\n  js {g}"
    if got["reloads"]:
        return f"{expected['code']}: a history read back is another game: {got['reloads'][0]}"
    return ""


@pytest.mark.parametrize("game_id", ["HM", "SH"])
def test_the_pages_rules_play_every_action_as_the_engine_does(page: Page, game_id: str):
    made = cases(game_id, seed=32)
    page.goto("/faq")
    got = page.evaluate(
        RUN, [game_id, [{"code": c["code"], "actions": c["actions"]} for c in made]]
    )
    differences = [d for e, g in zip(made, got, strict=True) if (d := first_difference(e, g))]
    assert differences == [], (
        f"{len(differences)} of {len(made)} games differ; first: " + (differences[0])
    )
    actions = sum(len(c["actions"]) for c in made)
    answers = [json.loads(a) for c in made for a in c["answers"]]
    outcomes = {a[0] for a in answers}
    assert actions >= 10_000
    refusals = {a[2] for a in answers if len(a) == 3} - {None}
    endings = {
        json.loads(state)[-4 if game_id == "SH" else -3] for c in made for state in c["states"]
    }
    # the play reaches every kind of answer and ending
    if game_id == "HM":
        assert {"selected", "deselected", "replaced", "removed", "refused", "stale"} <= outcomes
        assert refusals == {"sum", "jqk"}
        assert endings == {"playing", "won", "stuck"}
    else:
        assert {"selected", "deselected", "moved", "refused", "stale", "ignored"} <= outcomes
        assert {"not_movable", "same_suit_one_lower", "king_only", "cell_holds_one"} <= refusals
        assert {r for r in refusals if r.startswith("group-")}, refusals
        assert endings == {"playing", "won"}
