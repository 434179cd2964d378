"""Talking at the table: phrases and reactions travel as keys to every seat and spectator, free
text only at private tables (cleaned, limited, kept for moderation and swept), a limit per seat,
and a blocked player's words never reach the blocker. The host removes a player before the
start and kicks an away one after it: neither sits again, across a restart."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import insert, select

from tienlen.web.limits import Limits
from tienlen.web.room.chat import MAX_TEXT
from tienlen.web.room.rows import ChatRow

from .conftest import NO_CLIENT_LIMITS, Server, Visitor, WsClient, running
from .manual_time import ServerTime
from .test_fair_seats import grace_over
from .test_moderation import admin
from .test_rated_hands import IN_PLAY, browser, owners, play, played, room_of, sat_down, two_people


def said(server: Server) -> list[tuple[int, int, str | None, str, str]]:
    """What is kept of the chat: (hand, seat, identity, kind, text) in order."""
    c = ChatRow
    with server.app.state.services.repo.engine.connect() as conn:
        rows = conn.execute(select(c.hand_no, c.seat, c.identity, c.kind, c.text)
                            .order_by(c.id)).all()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def chat(ws: WsClient) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "chat")


def watcher(server: Server, table_id: str) -> WsClient:
    ws = browser(server).ws(table_id)
    ws.hello()
    return ws


def test_a_phrase_and_a_reaction_reach_every_seat_and_spectator_as_keys(server: Server) -> None:
    table_id, lan, minh = two_people(server, rules=IN_PLAY)
    spectator = watcher(server, table_id)
    lan.send(type="say", phrase="good_game")
    for ws in (lan, minh, spectator):
        got = chat(ws)
        assert (got["seat"], got["name"], got["kind"], got["phrase"]) == (0, "Lan", "phrase",
                                                                          "good_game")
        assert "text" not in got and "Good game" not in str(got)  # the key, never the words
    minh.send(type="react", emoji="👏")
    for ws in (lan, minh, spectator):
        got = chat(ws)
        assert (got["seat"], got["kind"], got["emoji"]) == (1, "emoji", "👏")
    lan_id, minh_id, *_ = owners(server, table_id)
    assert said(server) == [(1, 0, lan_id, "phrase", "good_game"), (1, 1, minh_id, "emoji", "👏")]
    # a spectator says nothing (its words would reach the seats); a phrase not in the catalogue,
    # an emoji not in the set are refused
    spectator.send(type="say", phrase="hello")
    assert spectator.error()["reason"] == "spectators cannot act: join a seat first"
    lan.send(type="say", phrase="you have a bomb")
    assert "phrase" in lan.error()["reason"]
    lan.send(type="react", emoji="🂡")
    assert "emoji" in lan.error()["reason"]
    assert len(said(server)) == 2


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_free_text_is_refused_at_a_public_table(server: Server, lang: str) -> None:
    _, lan, _ = two_people(server, rules=IN_PLAY)
    lan.send(type="hello", lang=lang)
    lan.until(lambda m: m["type"] == "welcome")
    lan.send(type="chat", text="hi all")
    assert lan.error()["reason"] == {
        "en": "free words are for private tables only: say a phrase or react",
        "vi": "lời tự do chỉ có ở bàn riêng: hãy nói câu có sẵn hoặc bày tỏ"}[lang]
    assert said(server) == []


def test_free_text_at_a_private_table_is_cleaned_limited_and_kept(server: Server) -> None:
    _, lan, minh = two_people(server, rules=IN_PLAY, private=True)
    lan.send(type="chat", text="<b>hi</b>\u202e\u200b   th\u0065\u0301re\x07 <script>")
    for ws in (lan, minh):
        got = chat(ws)
        # sent as the text it is (the page shows it as text): markup stays characters, the
        # bidi override, the zero-width space and the bell are gone, NFC, one space
        assert (got["kind"], got["text"]) == ("text", "<b>hi</b> th\u00e9re <script>")
    minh.send(type="chat", text="x" * (MAX_TEXT + 1))
    assert minh.error()["reason"] == f"the words are too long: {MAX_TEXT + 1} characters, at most 200"
    minh.send(type="chat", text="\u200b\u202e ")
    assert minh.error()["reason"] == "the words show nothing, or hold invisible characters"
    minh.send(type="chat", text="e\u0301" * MAX_TEXT)  # 200 characters once NFC
    assert minh.until(lambda m: m["type"] == "chat" and m["seat"] == 1)["text"] == "é" * MAX_TEXT
    assert [(seat, kind) for _, seat, _, kind, _ in said(server)] == [(0, "text"), (1, "text")]


SAYS = Limits().rates.say.player


def test_a_player_says_at_most_five_things_in_ten_seconds(server: Server) -> None:
    _, lan, minh = two_people(server, rules=IN_PLAY)
    for _ in range(SAYS):
        lan.send(type="react", emoji="🔥")
        chat(lan)
    lan.send(type="say", phrase="sorry")
    refused = lan.error()
    assert refused["code"] == "rate_limited"
    assert refused["reason"].startswith("too much said: a player says at most 5 things in 10 s")
    lan.send(type="hello", lang="vi")
    lan.until(lambda m: m["type"] == "welcome")
    lan.send(type="say", phrase="sorry")
    assert lan.error()["reason"].startswith(
        "nói quá nhiều: mỗi người chơi nói tối đa 5 lần trong 10 giây")
    minh.send(type="say", phrase="thanks")  # another player has its own count
    assert minh.until(lambda m: m["type"] == "chat" and m["seat"] == 1)["phrase"] == "thanks"
    assert len(said(server)) == SAYS + 1  # nothing kept of the refused


def test_a_blocked_players_words_do_not_reach_the_blocker(server: Server) -> None:
    lan_browser, minh_browser = browser(server), browser(server)
    table_id, lan, minh = two_people(server, lan=lan_browser, minh=minh_browser,
                                     rules=IN_PLAY, private=True)
    assert minh_browser.post("/api/blocks", {"table": table_id, "seat": 0}).status_code == 200
    minh.close()
    minh = minh_browser.ws(table_id)  # a new connection reads the blocks afresh
    minh.hello()
    for cmd in ({"type": "say", "phrase": "hurry_up"}, {"type": "react", "emoji": "😠"},
                {"type": "chat", "text": "you are slow"}):
        lan.send(**cmd)
        chat(lan)  # (who else hears a private table: test_private_tables)
    minh.send(type="say", phrase="hello")  # handled after Lan's three
    assert chat(minh)["seat"] == 1
    assert [m for m in minh.received if m["type"] == "chat" and m["seat"] == 0] == []
    assert chat(lan)["seat"] == 1  # the blocked player still sees the blocker's words


def test_a_block_reaches_the_chat_at_once_and_so_does_an_unblock(server: Server) -> None:
    lan_browser, minh_browser = browser(server), browser(server)
    table_id, lan, minh = two_people(server, lan=lan_browser, minh=minh_browser,
                                     rules=IN_PLAY, private=True)
    lan.send(type="chat", text="first")
    assert chat(minh)["text"] == "first"  # Minh's connection has read its blocks: none
    blocked = minh_browser.post("/api/blocks", {"table": table_id, "seat": 0})
    assert blocked.status_code == 200
    lan.send(type="chat", text="after the block")  # the same connections, at once
    chat(lan)
    minh.send(type="say", phrase="hello")  # handled after Lan's line
    assert chat(minh)["seat"] == 1
    assert [m["text"] for m in minh.received if m["type"] == "chat" and m["seat"] == 0] == \
        ["first"]
    # the rule is one way: Lan still reads Minh
    assert lan.until(lambda m: m["type"] == "chat" and m["seat"] == 1)["phrase"] == "hello"
    handle = blocked.json()["id"]
    assert minh_browser.post(f"/api/blocks/{handle}/remove").status_code == 200
    lan.send(type="chat", text="unblocked")
    assert minh.until(lambda m: m["type"] == "chat" and m["seat"] == 0)["text"] == "unblocked"


# ------------------------------------------------------------------ removing and kicking
def test_the_host_removes_a_player_who_is_here_and_they_cannot_sit_again(server: Server) -> None:
    lan, minh_browser = browser(server), browser(server)
    table_id, host, minh = sat_down(server, lan, minh_browser, players=3, rules=IN_PLAY)
    minh.send(type="remove_seat", seat=0)  # the host alone removes
    assert minh.error()["reason"] == "only the table's host (seat 0) can remove a seat"
    host.send(type="remove_seat", seat=1)
    welcome = minh.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] is None and welcome["barred"]  # Minh watches now
    for ws in (host, minh):
        told = ws.until(lambda m: m["type"] == "removed")
        assert (told["seat"], told["name"], told["how"]) == (1, "Minh", "removed")
    assert room_of(server, table_id).table.seats[1].kind == "empty"
    minh.send(type="join", name="Minh")
    assert minh.error()["reason"] == "the host removed you from this table: you cannot sit here again"
    server.restart()  # the removal is read back from the log
    page = minh_browser.ws(table_id)
    page.send(type="hello", lang="vi")
    assert page.until(lambda m: m["type"] == "welcome")["barred"]
    page.send(type="join", name="Minh 2", seat=2)
    assert page.error()["reason"] == "chủ bàn đã mời bạn ra khỏi bàn này: bạn không thể ngồi lại đây"
    other = browser(server).ws(table_id)  # the seat is free for anyone else
    other.send(type="hello")
    assert "barred" not in other.until(lambda m: m["type"] == "welcome")
    other.send(type="join", name="Hoa", seat=1)
    assert other.until(lambda m: m["type"] == "welcome")["seat"] == 1


def away(server: Server, table_id: str, seat: int) -> None:
    """Wait until a bot plays for the player at ``seat`` (away past the table's timeout)."""
    deadline = time.monotonic() + 10
    while not server.call(lambda: room_of(server, table_id).table.bot_controlled(seat)):
        assert time.monotonic() < deadline, "the player never counted as away"
        time.sleep(0.05)


def test_the_host_kicks_an_away_player_who_cannot_come_back(server: Server) -> None:
    lan_browser, minh_browser = browser(server), browser(server)
    table_id, lan, minh = two_people(server, lan=lan_browser, minh=minh_browser,
                                     rules=IN_PLAY, away_timeout=2)
    lan_id, minh_id, *_ = owners(server, table_id)
    lan.send(type="kick", seat=1)  # Minh is here
    assert lan.error()["reason"] == "Minh (seat 1) is here: only a player who is away can be kicked"
    minh.send(type="kick", seat=0)
    assert minh.error()["reason"] == "only the table's host (seat 0) can kick a player"
    lan.send(type="kick", seat=2)
    assert lan.error()["reason"] == "seat 2 holds no player to kick"
    minh.close()
    lan.until(lambda m: m["type"] == "state" and not m["info"]["seats"][1]["connected"])
    lan.send(type="kick", seat=1)  # gone for less than a rated table's grace (its least: 40 s)
    assert lan.error()["reason"].startswith("Minh (seat 1) has been away less than 40 seconds")
    grace_over(server, table_id, 1)
    away(server, table_id, 1)
    spectator = watcher(server, table_id)
    lan.send(type="kick", seat=1)
    for ws in (lan, spectator):
        told = ws.until(lambda m: m["type"] == "removed")
        assert (told["seat"], told["name"], told["how"]) == (1, "Minh", "kicked")
    seat = room_of(server, table_id).table.seats[1]
    assert (seat.kind, seat.name, seat.owner) == ("bot", "Minh", minh_id)
    # Minh's page is not offered the seat, and taking it back is refused in Minh's words
    page = minh_browser.ws(table_id)
    page.send(type="hello")
    welcome = page.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] is None and "back" not in welcome and welcome["barred"]
    page.send(type="back", seat=1)
    assert page.error()["reason"] == "the host kicked you from this table: you cannot take the seat back"
    server.restart()  # the kick is read back from the log: still refused, still the hand's leaver
    page = minh_browser.ws(table_id)
    page.send(type="hello", lang="vi")
    assert "back" not in page.until(lambda m: m["type"] == "welcome")
    page.send(type="back")
    assert page.error()["reason"] == "chủ bàn đã đuổi bạn khỏi bàn này: bạn không thể ngồi lại ghế"
    play(server, table_id)
    places = {row[0]: row[4] for row in played(server)}
    assert places[minh_id] == 4 and lan_id in places  # kicked mid-hand: rated its leaver, last


def test_a_kick_before_the_start_is_refused(server: Server) -> None:
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 2}).json()
    host = lan.ws(made["id"])
    host.hello()
    host.send(type="kick", seat=1)
    assert host.error()["reason"] == "the game has not started: the host removes a player instead"


def test_chat_older_than_the_retention_is_swept(sqlite_url: str) -> None:
    kept = Limits(**{**NO_CLIENT_LIMITS.__dict__, "keep_chat": 1.0})
    for server in running(sqlite_url, limits=kept, clock=ServerTime()):
        with server.app.state.services.repo.engine.begin() as conn:
            conn.execute(insert(ChatRow), [
                {"table_id": "t", "hand_no": 1, "seat": 0, "kind": "text", "text": "old",
                 "at": time.time() - 2 * 86400},
                {"table_id": "t", "hand_no": 1, "seat": 1, "kind": "text", "text": "new",
                 "at": time.time() - 3600}])
        server.advance(server.limits.sweep_every)  # the next sweep
        assert [text for *_, text in said(server)] == ["new"]


def test_an_admin_reads_the_chat_of_a_reported_hand(server: Server) -> None:
    lan_browser, minh_browser = browser(server), browser(server)
    table_id, lan, minh = two_people(server, lan=lan_browser, minh=minh_browser,
                                     rules=IN_PLAY, private=True)
    lan.send(type="chat", text="<i>rude</i>")
    chat(minh)
    assert minh_browser.post("/api/reports", {"table": table_id, "seat": 0, "reason": "abuse",
                                              "hand": 1}).status_code == 200
    boss: Visitor = admin(server)
    (report,) = boss.get("/api/admin/reports").json()
    lines = boss.get(f"/api/admin/chat?table={report['table']}&hand={report['hand']}").json()
    assert [(x["seat"], x["name"], x["kind"], x["text"]) for x in lines] == [
        (0, "Lan", "text", "<i>rude</i>")]
    assert minh_browser.get(f"/api/admin/chat?table={table_id}&hand=1").status_code == 403
