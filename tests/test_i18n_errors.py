"""What a player is told in Vietnamese beyond the game itself: cards that cannot be read, a bad
house-rules file, the command line's errors, ``tienlen replay --text``, and the bots' names (shown
as "Máy N", kept as "Bot N" in records)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tienlen import CardError, Game, IllegalPlay, Play, Rules, RulesError, Session, cli
from tienlen.i18n import Msg, display_name, say_error
from tienlen.lineplay import play_session

PAGAT = Rules.preset("pagat")


# ---------------------------------------------------------------------- cards that cannot be read
@pytest.mark.parametrize(("text", "english", "vietnamese"), [
    ("7x", "'7x' is not a card: 'x' is not a suit (suits: s c d h or ♠ ♣ ♦ ♥)",
     "'7x' không phải lá bài: 'x' không phải chất (chất: s c d h hoặc ♠ ♣ ♦ ♥)"),
    ("1s", "'1s' is not a card: '1' is not a rank (ranks: 3 4 5 6 7 8 9 T J Q K A 2, or 10)",
     "'1s' không phải lá bài: '1' không phải số bài (số: 3 4 5 6 7 8 9 T J Q K A 2, hoặc 10)"),
    ("Q", "'Q' is not a card: it has no suit (suits: s c d h or ♠ ♣ ♦ ♥)",
     "'Q' không phải lá bài: thiếu chất (chất: s c d h hoặc ♠ ♣ ♦ ♥)"),
    ("  ", "empty play: write the cards, such as '5s 5h', or 'pass'",
     "nước đánh trống: hãy viết các lá, như '5s 5h', hoặc 'pass' để bỏ lượt"),
])
def test_a_card_that_cannot_be_read_in_both_languages(text: str, english: str,
                                                      vietnamese: str) -> None:
    with pytest.raises(CardError) as info:
        Play.parse(text)
    assert str(info.value) == english  # the API's text stays English
    assert isinstance(info.value.reason, Msg)
    assert say_error(info.value, "vi") == vietnamese


def test_an_unreadable_action_keeps_its_message() -> None:
    game = Game.deal(PAGAT, 4, seed=1)
    with pytest.raises(IllegalPlay) as info:
        game.play("offer")
    assert say_error(info.value, "vi") == "'offer': 'offer' cần số ghế của người kia, như 'offer 2'"
    with pytest.raises(CardError) as bad:
        Game(PAGAT, hands=["3s xx", "4s", "5s", "6s"])
    assert say_error(bad.value, "vi").startswith("bài của ghế 0: 'xx' không phải lá bài")


def test_the_plain_game_explains_a_bad_card_in_vietnamese() -> None:
    out = io.StringIO()
    code = play_session(PAGAT, 4, 5, "Ana", stdin=io.StringIO("7x\nquit\n"), stdout=out,
                        lang="vi")
    assert code == 0
    assert "Không được: '7x' không phải lá bài: 'x' không phải chất" in out.getvalue()


# ---------------------------------------------------------------------- a bad house-rules file
@pytest.mark.parametrize(("text", "vietnamese"), [
    ('preset = "mien-nan"', "không có bộ luật 'mien-nan' (ý bạn là 'mien-nam'?)"),
    ("stake = 0", "stake phải từ 1 trở lên"),
    ('chops = ["quad > 2", "chian:4 > 22"]', "chops: 'chian:4' không phải kiểu chặt"),
    ("penalty_bomb = {quad = -1}", "penalty_bomb: quad phải tính một số điểm nguyên"),
    ("place_points = [2, 1]", "tổng place_points phải bằng không, không phải 3 ([2, 1])"),
    ('instant_wins = ["dragon", "dragon"]', "instant_wins ghi cùng một kiểu tới trắng hai lần"),
    ("cong = 1", "cong phải là true hoặc false, không phải 1"),
    ("stake = ", "luật: không phải TOML hợp lệ"),
])
def test_a_bad_rules_file_in_vietnamese(text: str, vietnamese: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_toml(text + "\n")
    assert vietnamese in say_error(info.value, "vi")
    assert say_error(info.value, "en") == str(info.value)


def test_the_command_line_says_a_bad_rules_file_in_the_chosen_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "pagat"\nstake = 0\n', encoding="utf-8")
    assert cli.main(["rules", str(path), "--explain", "--lang", "vi"]) == 2
    assert capsys.readouterr().err == f"tienlen: {path}: stake phải từ 1 trở lên\n"
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert cli.main(["play", "--rules", str(path), "--plain"]) == 2
    assert "stake phải từ 1 trở lên" in capsys.readouterr().err
    assert cli.main(["replay", str(tmp_path / "none.toml")]) == 2
    assert capsys.readouterr().err.startswith("tienlen: không đọc được '")
    assert cli.main(["play", "--bots", "random,greedy", "--plain", "--lang", "en"]) == 2
    assert "name one bot for each of the 3 opponents" in capsys.readouterr().err


# ---------------------------------------------------------------------- replay --text
def test_replay_text_in_vietnamese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = Session(PAGAT, 4, seed=2, names=["Lan", "Bot 1", "Bot 2", "Bot 3"])
    game = session.game
    while not game.is_over:
        game.play(game.legal_plays()[-1 if game.table is None else 0])
    path = tmp_path / "game.toml"
    path.write_text(session.record(), encoding="utf-8")
    assert cli.main(["replay", "--text", "--lang", "vi", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ván 1 (người chia: ")
    assert "  Máy 1: " in out and "Bot 1" not in out
    assert "bỏ lượt" in out and "pass" not in out
    assert "  thứ tự về: " in out and "  điểm:   Lan " in out
    assert cli.main(["replay", "--text", str(path)]) == 0
    english = capsys.readouterr().out
    assert english.startswith("Hand 1 (dealer ") and "  Bot 1: " in english


# ---------------------------------------------------------------------- the bots' names
def test_bots_are_named_in_the_players_words_but_recorded_alike() -> None:
    from tienlen.play.controller import Controller

    vi = Controller(PAGAT, 4, seed=5, lang="vi")
    en = Controller(PAGAT, 4, seed=5, lang="en")
    assert vi.names == ("Bạn", "Máy 1", "Máy 2", "Máy 3")
    assert en.names == ("You", "Bot 1", "Bot 2", "Bot 3")
    assert 'players = ["You", "Bot 1", "Bot 2", "Bot 3"]' in vi.record()
    assert vi.record() == en.record()
    clash = Controller(PAGAT, 4, seed=5, name="Máy 2", lang="vi")
    assert clash.names[0] == "Máy 2 (bạn)" and "Máy 2" in clash.names[1:]
    assert display_name("Bot 12", "vi") == "Máy 12" and display_name("Lan", "vi") == "Lan"


def test_the_terminal_game_in_vietnamese_fits_80_by_24() -> None:
    pytest.importorskip("textual")
    from tienlen.play.controller import Controller
    from tienlen.tui.app import TienLenApp
    from tui_pilot import drive

    app = TienLenApp(Controller(PAGAT, 4, seed=5, lang="vi"), delay=0)

    async def script(pilot: Any) -> None:
        board = "\n".join(s.text for s in app.query_one("#felt").render_lines(
            app.query_one("#felt").region.reset_offset))
        for seat in (1, 2, 3):
            assert f"Máy {seat}" in board

    drive(app, script)


def test_the_options_list_says_its_chops_in_vietnamese(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "killer", "--lang", "vi"]) == 0
    out = capsys.readouterr().out
    assert "  quad > 2    (Tứ quý chặt được một con heo)\n" in out
    assert "beats" not in out and "place_points: tùy số người chơi" in out
    assert cli.main(["rules", "killer", "--lang", "en"]) == 0
    assert capsys.readouterr().out == Rules.preset("killer").describe() + "\n"


@pytest.mark.parametrize(("argv", "vietnamese"), [
    (["--players", "9"], "số người chơi phải từ 2 đến 8, không phải 9"),
    (["--bots", "nope"], "không có máy 'nope'; các máy: random"),
    (["--bots", "search:stesp=1"], "search không có tùy chọn 'stesp' (ý bạn là 'steps'?)"),
    (["--bots", "random:depth"], "máy 'random:depth': hãy viết tùy chọn dạng khóa=giá trị"),
])
def test_tienlen_play_refuses_bad_players_and_bots_in_vietnamese(
        argv: list[str], vietnamese: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--plain", "--lang", "vi", *argv]) == 2
    assert vietnamese in capsys.readouterr().err
