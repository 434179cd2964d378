"""The page as a renderer of the engine's turns and typed history: the server sends what a seat
is asked as the engine's decision kind with its facts, and the history as events (a play, an
action with its kind, a hidden action with its count); the page says both in the reader's
language from the kinds and fields, and keeps no list of action words."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

pytest.importorskip("fastapi")

from tienlen import Game
from tienlen.actions import ACTION_KINDS, CARD_KINDS
from tienlen.turns import Kind
from tienlen.view import events_for
from tienlen.web.records.replays import replay_steps
from tienlen.web.room.protocol import EventKind, Prompt
from tienlen.web.room.views import PlayTexts, event_view, seat_view

from .asked import TABLES, claim, exchange, trading

STATIC = Path(__file__).parents[2] / "src" / "tienlen" / "web" / "static"
CATALOGUE = Path(__file__).parents[2] / "src" / "tienlen" / "i18n"
COUNT = re.compile(r" \((\d+) cards?\)$")


# ---------------------------------------------------------------------- one list of kinds
def test_the_prompts_are_the_engines_decision_kinds_but_a_play_in_turn() -> None:
    assert set(get_args(Prompt)) == {k.value for k in Kind} - {Kind.PLAY.value}


def test_the_events_kinds_are_a_play_a_pass_each_action_kind_and_a_hidden_answer() -> None:
    kinds: list[str] = []
    for part in get_args(EventKind):
        kinds += get_args(part)
    assert sorted(kinds) == sorted(("play", "pass", "answered", *ACTION_KINDS))


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_pages_words_are_keyed_by_the_servers_kinds(lang: str) -> None:
    words = json.loads((CATALOGUE / f"{lang}.json").read_text(encoding="utf-8"))
    kinds = [k for part in get_args(EventKind) for k in get_args(part)]
    assert [k for k in kinds if k != "play" and f"move.{k}" not in words] == []
    for kind in get_args(Prompt):  # a prompt with cards to select is said by their number
        assert f"web.prompt.{kind}" in words or {f"web.prompt.{kind}.one",
                                                 f"web.prompt.{kind}.other"} <= words.keys()
    assert [k for k in CARD_KINDS - {"give"} if f"web.decision.{k}" not in words] == []


# ---------------------------------------------------------------------- the events
def steps() -> list[Game]:
    """Each stopping point of the hands of asked.py: every step of the trades, the exchange
    before and after the returns, the claims before and after every seat answered."""
    return [*(trading(n) for n in range(9)), exchange(False), exchange(True), claim(False),
            claim(True), TABLES["free_chop"]()]


@pytest.mark.parametrize("seat", [0, 1, 2, 3, None])
def test_the_events_hide_what_the_history_hides(seat: int | None) -> None:
    """A spectator's events hide every trade's and exchange's cards and every unanswered
    claim, as its history as text does; a seat's events are its engine view's, and show the cards
    of the trades it is party to."""
    hidden = 0
    for game in steps():
        view = seat_view(game, seat, PlayTexts())
        history = [(s, str(m)) for s, m in events_for(game, seat)]  # as the records say it
        assert len(view.events) == len(history) == len(game.history)
        for e, (s, text), (actor, move) in zip(view.events, history, game.history, strict=True):
            assert e.seat == s == actor
            count = COUNT.search(text)
            if count:  # the history hides the cards: so do the events, but their number
                hidden += 1
                assert (e.cards, e.count) == (None, int(count.group(1)))
            elif text == "answered":
                hidden += 1
                assert (e.kind, e.cards, e.count, e.other, e.win) == ("answered", None, 0, None, None)
            else:  # shown: the move as it was made, as the history's text says
                assert e == event_view(actor, move) and str(move) == text
        if seat is not None:
            assert view.events == [event_view(s, m) for s, m in game.view(seat).events]
        assert view.events == [event_view(s, m) for s, m in events_for(game, seat)]
    assert hidden > (10 if seat is None else 3)


def test_an_event_on_the_wire_holds_only_its_facts() -> None:
    """A field an event lacks is left out of the JSON (the page reads it as none), and seat 0
    as the other seat of a trade is a fact, kept."""
    watched = seat_view(trading(8), 1)
    wire = [json.loads(e.model_dump_json()) for e in watched.events]
    assert wire[:2] == [{"seat": 0, "kind": "offer", "cards": str(watched.events[0].cards),
                         "count": 1, "other": 1},
                        {"seat": 1, "kind": "answer", "cards": str(watched.events[1].cards),
                         "count": 1, "other": 0}]
    assert all(None not in item.values() for item in wire)


def test_a_spectator_sees_no_card_of_a_trade_and_no_unanswered_claim() -> None:
    watched = seat_view(trading(8), None)
    assert [(e.kind, e.other, e.cards, e.count) for e in watched.events] == [
        ("offer", 1, None, 1), ("answer", 0, None, 1), ("accept", 1, None, 0),
        ("offer", 2, None, 2), ("answer", 1, None, 2), ("refuse", 2, None, 0),
        ("done", None, None, 0), ("offer", 0, None, 1)]
    seen = seat_view(trading(8), 0)
    assert [(e.kind, e.cards) for e in seen.events][:4] == [
        ("offer", "3s"), ("answer", "4s"), ("accept", None), ("offer", None)]
    assert [(e.kind, e.win) for e in seat_view(claim(False), None).events] == [("answered", None)]
    assert [(e.kind, e.win) for e in seat_view(claim(False), 2).events] == [("claim", "dragon")]
    assert [(e.kind, e.win) for e in seat_view(claim(True), None).events] == [
        ("claim", "dragon"), ("answered", None)]  # shown once every seat answered; a decline never
    assert [(e.kind, e.cards) for e in seat_view(exchange(True), None).events] == [
        ("give", None), ("give", None), ("return", None), ("return", None)]
    play = seat_view(TABLES["free_chop"](), None).events[0]
    assert (play.kind, play.cards, play.count) == ("play", "2h", 1)


def test_each_replay_step_carries_its_action_as_an_event() -> None:
    from tienlen.arena import play_out
    from tienlen.bots import get_bot

    game = trading(3)
    play_out(game, [get_bot("random", seed=s) for s in range(4)])
    steps = replay_steps(game.record())["steps"]
    assert steps[0]["event"] is None
    events = [step["event"] for step in steps[1:]]
    assert events == [event_view(s, m).model_dump() for s, m in game.history]
    assert events[0] == {"seat": 0, "kind": "offer", "cards": "3s", "count": 1,
                         "other": 1}  # the replay shows the finished hand whole


# ---------------------------------------------------------------------- the page's scripts
# an action kind used as a parsed word: compared, switched on, tested for, listed
_VERB = "|".join(ACTION_KINDS)
PARSED = [re.compile(p) for p in (
    rf"[!=]==?\s*[\"'`]({_VERB})\b", rf"[\"'`]({_VERB})\b[^\"'`]*[\"'`]\s*[!=]==?",
    rf"\bcase\s+[\"'`]({_VERB})\b", rf"(startsWith|endsWith|includes|indexOf)\(\s*[\"'`]({_VERB})\b",
    rf"\[\s*[\"'`]({_VERB})[\"'`]\s*,", rf"/[^/\n]*\b({_VERB})\|[^/\n]*/")]


def test_the_page_holds_no_list_of_action_words() -> None:
    """The page says actions by the server's kinds (move.<kind>), never by reading words out
    of a move's text: no action kind compared, switched on, searched for or listed."""
    found = []
    for path in sorted(STATIC.rglob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.name}:{n}: {line.strip()}" for p in PARSED if p.search(line)]
    assert found == []


def test_the_page_reads_the_history_from_its_events_not_its_text() -> None:
    for path in STATIC.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "view.history" not in text and "step.last" not in text, path.name
        assert not re.search(r"\.legal\.(find|filter|some)\(", text), path.name


# ---------------------------------------------------------------------- in the browser
pytest.importorskip("playwright")

from playwright.sync_api import Browser  # noqa: E402

from .conftest import Server  # noqa: E402
from .test_browser import TABLE, wait_turn_or_over  # noqa: E402
from .test_payments import DESKTOP, practice_table  # noqa: E402

READ = """() => ({
  status: document.querySelector("[data-testid=status]").textContent,
  // the page lists the newest first: read back in the order the moves were made
  history: [...document.querySelectorAll("#history li.move")]
    .map((li) => li.getAttribute("aria-label")).reverse(),
  buttons: [...document.querySelectorAll("#decisions button")].map((b) => b.textContent),
})"""
SHOW = f"""([view, seat]) => {{ const t = {TABLE}; t.seat = seat;
    t.state = {{ ...t.state, view }}; t.render(t.state); }}"""

# what the page says at each table of asked.py, for seat 0 (Lan) and for a spectator (None):
# the status line (None: not looked at), the history's lines and the decision's buttons; as
# the page said before it read the events, but for the hidden actions' words (a hidden
# trade's count and another seat's claim answer were English on a Vietnamese page)
SAID: dict[str, dict[tuple[str, int | None], tuple[str | None, list[str], list[str]]]] = {
    "en": {
        ("offer", 0): (
            'Offer cards to a player (select them first), or say done',
            [],
            ['done', 'Offer selected to Bot 1', 'Offer selected to Bot 2', 'Offer selected to Bot 3']),
        ("offer", None): (
            "Lan's turn (trading)",
            [],
            []),
        ("settle", 0): (
            'Bot 1 answered your offer: accept or refuse',
            ['Lan: offer Bot 1 3s', 'Bot 1: answer Lan 4s'],
            ['accept Bot 1', 'refuse Bot 1']),
        ("settle", None): (
            "Lan's turn (trading)",
            ['Lan: offer Bot 1 (1 card)', 'Bot 1: answer Lan (1 card)'],
            []),
        ("answer", 0): (
            'Bot 3 offers you 1 card: answer with as many of yours, or refuse',
            ['Lan: offer Bot 1 3s',
             'Bot 1: answer Lan 4s',
             'Lan: accept Bot 1',
             'Bot 1: offer Bot 2 (2 cards)',
             'Bot 2: answer Bot 1 (2 cards)',
             'Bot 1: refuse Bot 2',
             'Bot 2: done',
             'Bot 3: offer Lan Jh'],
            ['refuse Bot 3', 'Answer Bot 3 with selected (1)']),
        ("answer", None): (
            "Lan's turn (trading)",
            ['Lan: offer Bot 1 (1 card)',
             'Bot 1: answer Lan (1 card)',
             'Lan: accept Bot 1',
             'Bot 1: offer Bot 2 (2 cards)',
             'Bot 2: answer Bot 1 (2 cards)',
             'Bot 1: refuse Bot 2',
             'Bot 2: done',
             'Bot 3: offer Lan (1 card)'],
            []),
        ("return", 0): (
            'Return 2 cards of your choice to Bot 3',
            ['Bot 3: give Lan 2d 2h', 'Bot 2: give Bot 1 (1 card)'],
            ['Return selected (2) to Bot 3']),
        ("return", None): (
            "Lan's turn (giving back)",
            ['Bot 3: give Lan (2 cards)', 'Bot 2: give Bot 1 (1 card)'],
            []),
        ("returned", 0): (
            'Your turn: lead anything',
            ['Bot 3: give Lan 2d 2h',
             'Bot 2: give Bot 1 (1 card)',
             'Lan: return to Bot 3 3s 4d',
             'Bot 1: return to Bot 2 (1 card)'],
            []),
        ("returned", None): (
            "Lan's turn",
            ['Bot 3: give Lan (2 cards)',
             'Bot 2: give Bot 1 (1 card)',
             'Lan: return to Bot 3 (2 cards)',
             'Bot 1: return to Bot 2 (1 card)'],
            []),
        ("claim", 0): (
            'You may claim an instant win, or decline',
            ['Bot 2: answered'],
            ['claim no loose card', 'decline']),
        ("claim", None): (
            "Lan's turn (claims)",
            ['Bot 2: answered'],
            []),
        ("claimed", 0): (
            None,
            ['Bot 2: claim a dragon', 'Lan: decline'],
            []),
        ("claimed", None): (
            None,
            ['Bot 2: claim a dragon', 'Lan: answered'],
            []),
        ("free_chop", 0): (
            "Bot 2's turn — Free chop: you may chop Bot 1's 2♥ now, out of turn",
            ['Bot 1: 2 of hearts'],
            []),
        ("free_chop", None): (
            "Bot 2's turn",
            ['Bot 1: 2 of hearts'],
            []),
    },
    "vi": {
        ("offer", 0): (
            'Đổi bài với một người (chọn bài trước), hoặc bấm xong',
            [],
            ['xong',
             'Đổi các lá đã chọn với Máy 1',
             'Đổi các lá đã chọn với Máy 2',
             'Đổi các lá đã chọn với Máy 3']),
        ("offer", None): (
            'Lượt của Lan (đổi bài)',
            [],
            []),
        ("settle", 0): (
            'Máy 1 đã trả lời: đồng ý hoặc từ chối',
            ['Lan: đổi với Máy 1: 3s', 'Máy 1: trả lời Lan: 4s'],
            ['đồng ý với Máy 1', 'từ chối Máy 1']),
        ("settle", None): (
            'Lượt của Lan (đổi bài)',
            ['Lan: đổi với Máy 1: (1 lá)', 'Máy 1: trả lời Lan: (1 lá)'],
            []),
        ("answer", 0): (
            'Máy 3 đề nghị đổi 1 lá: trả lời bằng ngần ấy lá của bạn, hoặc từ chối',
            ['Lan: đổi với Máy 1: 3s',
             'Máy 1: trả lời Lan: 4s',
             'Lan: đồng ý với Máy 1',
             'Máy 1: đổi với Máy 2: (2 lá)',
             'Máy 2: trả lời Máy 1: (2 lá)',
             'Máy 1: từ chối Máy 2',
             'Máy 2: xong',
             'Máy 3: đổi với Lan: Jh'],
            ['từ chối Máy 3', 'Trả lời Máy 3 bằng các lá đã chọn (1)']),
        ("answer", None): (
            'Lượt của Lan (đổi bài)',
            ['Lan: đổi với Máy 1: (1 lá)',
             'Máy 1: trả lời Lan: (1 lá)',
             'Lan: đồng ý với Máy 1',
             'Máy 1: đổi với Máy 2: (2 lá)',
             'Máy 2: trả lời Máy 1: (2 lá)',
             'Máy 1: từ chối Máy 2',
             'Máy 2: xong',
             'Máy 3: đổi với Lan: (1 lá)'],
            []),
        ("return", 0): (
            'Trả Máy 3 2 lá tùy bạn chọn',
            ['Máy 3: đưa Lan: 2d 2h', 'Máy 2: đưa Máy 1: (1 lá)'],
            ['Trả Máy 3 các lá đã chọn (2)']),
        ("return", None): (
            'Lượt của Lan (trả bài)',
            ['Máy 3: đưa Lan: (2 lá)', 'Máy 2: đưa Máy 1: (1 lá)'],
            []),
        ("returned", 0): (
            'Đến lượt bạn: đánh gì cũng được',
            ['Máy 3: đưa Lan: 2d 2h',
             'Máy 2: đưa Máy 1: (1 lá)',
             'Lan: trả Máy 3: 3s 4d',
             'Máy 1: trả Máy 2: (1 lá)'],
            []),
        ("returned", None): (
            'Lượt của Lan',
            ['Máy 3: đưa Lan: (2 lá)',
             'Máy 2: đưa Máy 1: (1 lá)',
             'Lan: trả Máy 3: (2 lá)',
             'Máy 1: trả Máy 2: (1 lá)'],
            []),
        ("claim", 0): (
            'Bạn có thể báo tới trắng, hoặc không báo',
            ['Máy 2: đã trả lời'],
            ['báo không có bài lẻ', 'không báo']),
        ("claim", None): (
            'Lượt của Lan (báo tới trắng)',
            ['Máy 2: đã trả lời'],
            []),
        ("claimed", 0): (
            None,
            ['Máy 2: báo sảnh rồng', 'Lan: không báo'],
            []),
        ("claimed", None): (
            None,
            ['Máy 2: báo sảnh rồng', 'Lan: đã trả lời'],
            []),
        ("free_chop", 0): (
            'Lượt của Máy 2 — Chặt tự do: bạn có thể chặt 2♥ của Máy 1 ngay, ngoài lượt',
            ['Máy 1: quân heo cơ'],
            []),
        ("free_chop", None): (
            'Lượt của Máy 2',
            ['Máy 1: quân heo cơ'],
            []),
    },
}


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_page_says_each_table_asked_in_both_languages(browser: Browser, server: Server,
                                                           lang: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate("lang => localStorage.setItem('tienlen-lang', lang)", lang)
    practice_table(page, server)
    wait_turn_or_over(page)  # the bots wait for Lan: the table stays as set here
    said: dict[tuple[str, int | None], Any] = {}
    for name, make in TABLES.items():
        for seat in (0, None):
            page.evaluate(SHOW, [seat_view(make(), seat).model_dump(mode="json"), seat])
            got = page.evaluate(READ)
            said[name, seat] = (got["status"] if name != "claimed" else None, got["history"],
                                got["buttons"])
    context.close()
    assert said == SAID[lang]
