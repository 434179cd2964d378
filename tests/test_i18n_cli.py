"""The command line in Vietnamese beyond the game: records that cannot be replayed, the words of
the operating system and the TOML parser inside a translated sentence, argparse's usage errors
and --help, the bots' option errors, and the tables of ``tournament`` and ``bench``; English
stays the default and the same as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tienlen import RecordError, Session, cli
from tienlen.i18n import Said, render, say_error, toml_reason, validation_reason

SRC = Path(__file__).resolve().parents[1] / "src"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's --help and usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _env_run(env_lang: str | None, *argv: str) -> subprocess.CompletedProcess[str]:
    """``tienlen ARGV`` in a fresh process, with LANG set (LC_ALL and LC_MESSAGES unset)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG",
                                                            "LANGUAGE")}
    env["PYTHONPATH"] = str(SRC)
    env["COLUMNS"] = "80"
    if env_lang:
        env["LANG"] = env_lang
    return subprocess.run([sys.executable, "-m", "tienlen.cli", *argv], env=env, text=True,
                          capture_output=True, timeout=120, check=False)


# ---------------------------------------------------------------------- records
RECORD = 'format = "tienlen/1"\nrules = "pagat"\nplayers = ["A", "B"]\n'


@pytest.mark.parametrize(("text", "english", "vietnamese"), [
    ('format = "tienlen/2"\n', "the record's format must be 'tienlen/1', not 'tienlen/2'",
     "định dạng (format) của biên bản phải là 'tienlen/1', không phải 'tienlen/2'"),
    (RECORD, "the record has no [[hands]]", "biên bản không có ván nào ([[hands]])"),
    ('format = "tienlen/1"\nrules = pagat\n',
     "the record is not valid TOML: Invalid value (at line 2, column 9)",
     "biên bản không phải TOML hợp lệ: giá trị không hợp lệ (ở dòng 2, cột 9)"),
    (RECORD + '[[hands]]\ndealer = "x"\ndealt = ["3s", "4s"]\n',
     "hand 1: dealer must be a seat number, not 'x'",
     "ván 1: dealer phải là số ghế, không phải 'x'"),
    (RECORD + '[[hands]]\ndealt = ["3s 5s", "4s 6s"]\nactions = ["0 3s", "1 3s"]\n',
     None, "ván 1, hành động 1 ('1 3s'): "),
])
def test_a_record_that_cannot_be_replayed_in_both_languages(text: str, english: str | None,
                                                            vietnamese: str) -> None:
    with pytest.raises(RecordError) as info:
        Session.from_record(text)
    if english is not None:
        assert str(info.value) == english
    assert say_error(info.value, "en") == str(info.value)
    assert say_error(info.value, "vi").startswith(vietnamese)


def test_tienlen_replay_says_a_broken_record_in_vietnamese(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('format = "tienlen/1"\nrules = "nope"\n', encoding="utf-8")
    code, _, err = _run(capsys, "replay", "--text", "--lang", "vi", str(broken))
    assert code == 2
    assert err == "tienlen: luật (rules) của biên bản phải là tên một bộ luật, không phải 'nope'\n"
    code, _, err = _run(capsys, "replay", "--text", str(broken))
    assert err == "tienlen: the record's rules must be a preset name, not 'nope'\n"
    result = _env_run("vi_VN.UTF-8", "replay", "--text", str(broken))
    assert result.returncode == 2 and "luật (rules) của biên bản" in result.stderr


# ---------------------------------------------------------------------- words from outside
def test_the_operating_systems_reasons_in_vietnamese(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.toml"
    _, _, err = _run(capsys, "replay", "--text", "--lang", "vi", str(missing))
    assert err == f"tienlen: không đọc được '{missing}': không có tệp hoặc thư mục này\n"
    _, _, err = _run(capsys, "replay", "--text", "--lang", "en", str(missing))
    assert err == f"tienlen: cannot read '{missing}': No such file or directory\n"
    _, _, err = _run(capsys, "replay", "--text", "--lang", "vi", str(tmp_path))
    assert err.endswith(": đó là một thư mục\n")
    _, _, err = _run(capsys, "rules", "--lang", "vi", str(missing))
    assert err.endswith("không có tệp hoặc thư mục này\n") and "tệp luật" in err


def test_toml_syntax_errors_in_vietnamese(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    house = tmp_path / "house.toml"
    house.write_text('preset = "pagat"\nstake = \n', encoding="utf-8")
    _, _, err = _run(capsys, "rules", "--lang", "vi", str(house))
    assert "không phải TOML hợp lệ: giá trị không hợp lệ (ở dòng 2, cột 9)" in err, err
    _, _, err = _run(capsys, "rules", str(house))
    assert "not valid TOML: Invalid value (at line 2, column 9)" in err
    for text, vi in (("a = 1\na = 2\n", "không được ghi đè một giá trị (ở dòng 2, cột 6)"),
                     ("[x", "thiếu ']' ở cuối khai báo bảng (ở cuối văn bản)"),
                     ("a = [1", "mảng chưa được đóng (ở cuối văn bản)")):
        with pytest.raises(tomllib.TOMLDecodeError) as info:
            tomllib.loads(text)
        reason = toml_reason(info.value)
        assert render(reason, "en") == str(info.value)
        assert render(reason, "vi") == vi, render(reason, "vi")


def test_toml_nested_too_deeply_in_vietnamese(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.toml"
    house.write_text('preset = "pagat"\nstake = ' + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    code, _, err = _run(capsys, "rules", "--lang", "vi", str(house))
    assert code == 2
    assert err.endswith("không phải TOML hợp lệ: lồng nhau quá sâu (quá 32 tầng) "
                        "(ở dòng 2, cột 41)\n"), err
    house.write_text('preset = "pagat"\n' + ".".join(["a"] * 40) + " = 1\n", encoding="utf-8")
    _, _, err = _run(capsys, "rules", "--lang", "vi", str(house))
    assert err.endswith("không phải TOML hợp lệ: lồng nhau quá sâu (quá 32 tầng)\n"), err
    _, _, err = _run(capsys, "rules", str(house))
    assert err.endswith("not valid TOML: Nested too deeply (more than 32 levels)\n"), err


def test_validation_details_in_vietnamese() -> None:
    error = {"type": "int_parsing", "msg": "Input should be a valid integer, unable to parse "
             "string as an integer", "loc": ("body", "seat")}
    reason = validation_reason(error)
    assert isinstance(reason, Said) and render(reason, "en") == error["msg"]
    assert render(reason, "vi").startswith("phải là một số nguyên")
    literal = validation_reason({"type": "literal_error", "msg": "Input should be 'a' or 'b'",
                                 "ctx": {"expected": "'a' or 'b'"}})
    assert render(literal, "vi") == "phải là 'a', 'b'"
    assert render(literal, "en") == "Input should be 'a' or 'b'"
    odd = {"type": "no_such_type", "msg": "Something else"}
    assert validation_reason(odd) == "Something else"


# ---------------------------------------------------------------------- argparse
@pytest.mark.parametrize(("argv", "english", "vietnamese"), [
    (["replay"], "tienlen replay: the following arguments are required: file "
     "(see tienlen replay --help)",
     "tienlen replay: thiếu các đối số bắt buộc: file (xem tienlen replay --help)"),
    (["rules", "--lang", "fr"], "argument --lang: invalid choice: 'fr' (choose from 'en', 'vi')",
     "đối số --lang: lựa chọn không hợp lệ: 'fr' (chọn một trong 'en', 'vi')"),
    (["tournament", "--bogus"], "tienlen: unrecognized arguments: --bogus",
     "tienlen: đối số không hiểu được: --bogus"),
    (["play", "--seed"], "argument --seed: expected one argument",
     "đối số --seed: cần đúng một giá trị"),
    (["play", "--players", "x"], "argument --players: 'x' is not a whole number",
     "đối số --players: 'x' không phải số nguyên"),
    (["serve", "--bot-delay", "x"], "argument --bot-delay: 'x' is not a number",
     "đối số --bot-delay: 'x' không phải số"),
    (["bench", "--hands", "0"], "argument --hands: must be 1 or more, not 0",
     "đối số --hands: phải từ 1 trở lên, không phải 0"),
    (["tournament", "--time-limit", "soon"], "argument --time-limit: 'soon' is not a number of "
     "seconds", "đối số --time-limit: 'soon' không phải số giây"),
    (["frob"], "argument COMMAND: invalid choice: 'frob'",
     "đối số COMMAND: lựa chọn không hợp lệ: 'frob'"),
])
def test_usage_errors_in_both_languages(capsys: pytest.CaptureFixture[str], argv: list[str],
                                        english: str, vietnamese: str) -> None:
    code, out, err = _run(capsys, *argv, "--lang", "en")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert english in err
    code, _, err = _run(capsys, *argv, "--lang", "vi")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert vietnamese in err, err
    assert "(xem tienlen" in err and "--help)" in err


def test_usage_errors_follow_lang_from_the_environment() -> None:
    result = _env_run("vi_VN.UTF-8", "replay")
    assert result.returncode == 2
    assert result.stderr == ("tienlen replay: thiếu các đối số bắt buộc: file "
                             "(xem tienlen replay --help)\n")
    result = _env_run(None, "replay")
    assert result.stderr == ("tienlen replay: the following arguments are required: file "
                             "(see tienlen replay --help)\n")
    # --lang wins over the environment, either way
    assert "the following arguments" in _env_run("vi_VN.UTF-8", "replay", "--lang", "en").stderr
    assert "thiếu các đối số" in _env_run("C.UTF-8", "replay", "--lang=vi").stderr


def test_argv_lang_reads_lang_before_parsing() -> None:
    assert cli.argv_lang(["play", "--lang", "vi"], {}) == "vi"
    assert cli.argv_lang(["play", "--lang=vi"], {}) == "vi"
    assert cli.argv_lang(["play", "--lang", "xx"], {"LANG": "vi_VN.UTF-8"}) == "vi"
    assert cli.argv_lang(["play"], {"LC_ALL": "vi_VN.UTF-8"}) == "vi"
    assert cli.argv_lang(["play", "--", "--lang", "vi"], {}) == "en"
    assert cli.argv_lang([], {}) == "en"


@pytest.mark.parametrize("command", ["rules", "train", "bench", "play", "tournament", "serve",
                                     "replay"])
def test_every_help_in_vietnamese(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                  command: str) -> None:
    from tienlen.i18n import width

    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = _run(capsys, command, "--help", "--lang", "vi")
    assert code == 0
    assert max(width(line) for line in out.splitlines()) <= 80
    assert out.startswith(f"cách dùng: tienlen {command}")
    assert "tùy chọn:" in out and "hiện phần hướng dẫn này rồi thoát" in out
    assert "show this help" not in out and "usage:" not in out and "default:" not in out
    code, out, _ = _run(capsys, command, "--help")
    assert out.startswith(f"usage: tienlen {command}") and "show this help message" in out
    for words in ("(default:", "the language of what is shown"):
        assert words in " ".join(out.split()) or command in ("replay", "rules"), (command, words)


def test_the_main_help_in_vietnamese_from_the_environment() -> None:
    result = _env_run("vi_VN.UTF-8", "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("cách dùng: tienlen")
    assert "Tiến Lên, đúng từng luật." in result.stdout
    assert "xem lại một biên bản" in result.stdout
    assert _env_run(None, "--help").stdout.startswith("usage: tienlen")


def test_argparse_is_left_as_it_was_after_a_vietnamese_run(
        capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    _run(capsys, "replay", "--lang", "vi")
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]


def test_the_argparse_catalogue_keys_are_argparse_words() -> None:
    from tienlen.i18n import catalogue

    keys = {k for k in catalogue("en") if k.startswith("argparse.")}
    assert keys and all(catalogue("en")[k] == k[len("argparse."):] for k in keys)
    for key in keys:  # the same %-placeholders, or argparse's formatting fails
        import re
        form = re.compile(r"%(?:\(\w+\))?[sr]")
        assert sorted(form.findall(catalogue("vi")[key])) == sorted(form.findall(key)), key


# ---------------------------------------------------------------------- the bots' options
@pytest.mark.parametrize(("bots", "english", "vietnamese"), [
    ("search:steps=x", "bot 'search:steps=x': steps must be a whole number, 1 or more, not 'x'",
     "máy 'search:steps=x': steps phải là số nguyên từ 1 trở lên, không phải 'x'"),
    ("search:wrld=3", "bot 'search:wrld=3': search has no option 'wrld' (did you mean 'worlds'?)",
     "máy 'search:wrld=3': search không có tùy chọn 'wrld' (ý bạn là 'worlds'?)"),
    ("nobot", "unknown bot 'nobot'; bots: random", "không có máy 'nobot'; các máy: random"),
    ("search:objective=x", "objective must be one of first, place, units, rules, not 'x'",
     "objective phải là một trong first, place, units, rules, không phải 'x'"),
    ("search:inference=2", "inference must be a share of the steps",
     "inference phải là tỉ lệ số bước"),
    ("learned:epsilon=x", "bot 'learned:epsilon=x': epsilon must be a number, not 'x'",
     "máy 'learned:epsilon=x': epsilon phải là một số, không phải 'x'"),
    ("learned:weights=/no/such.npz", "cannot read the weights '/no/such.npz': No such file",
     "không đọc được trọng số '/no/such.npz': không có tệp hoặc thư mục này"),
])
def test_bot_option_errors_in_both_languages(capsys: pytest.CaptureFixture[str], bots: str,
                                             english: str, vietnamese: str) -> None:
    argv = ["tournament", "--players", "2", "--deals", "1", "--quiet", "--bots", f"{bots},random"]
    code, _, err = _run(capsys, *argv)
    assert code == 2 and err.startswith("tienlen: ") and english in err, err
    code, _, err = _run(capsys, *argv, "--lang", "vi")
    assert code == 2 and vietnamese in err, err
    code, _, err = _run(capsys, "play", "--plain", "--bots", bots, "--lang", "vi")
    assert code == 2 and vietnamese in err, err


def test_bot_option_errors_follow_the_environment() -> None:
    result = _env_run("vi_VN.UTF-8", "play", "--plain", "--bots", "search:steps=x")
    assert result.returncode == 2
    assert result.stderr == ("tienlen: máy 'search:steps=x': steps phải là số nguyên từ 1 trở "
                             "lên, không phải 'x'\n")


# ---------------------------------------------------------------------- serve
def test_serve_limit_errors_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    code, _, err = _run(capsys, "serve", "--max-tables", "0")
    assert code == 2 and err == "tienlen: max-tables must be 1 or more, not 0\n"
    code, _, err = _run(capsys, "serve", "--idle-expiry", "0", "--lang", "vi")
    assert err == "tienlen: idle-expiry phải nhiều hơn 0 giây, không phải 0.0\n"
    code, _, err = _run(capsys, "serve", "--port", "0", "--lang", "vi")
    assert err == "tienlen: --port phải từ 1 đến 65535, không phải 0\n"


def test_serve_start_up_lines_in_both_languages() -> None:
    pytest.importorskip("uvicorn")
    from tienlen.web.limits import Limits
    from tienlen.web.server import limits_text

    english = limits_text(Limits())
    assert english.startswith("tienlen: limits: 20000 tables in all; per player 20 open tables")
    vietnamese = limits_text(Limits(), "vi")
    assert vietnamese.startswith("tienlen: giới hạn: tổng cộng 20000 bàn; mỗi người chơi 20 bàn")
    assert "7200 giây" in vietnamese


# ---------------------------------------------------------------------- tables
@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_tournament_table_in_both_languages_stays_aligned(
        capsys: pytest.CaptureFixture[str], lang: str) -> None:
    code, out, _ = _run(capsys, "tournament", "--players", "2", "--bots", "greedy,random",
                        "--deals", "3", "--quiet", "--lang", lang)
    assert code == 0
    head, columns, *rows = out.splitlines()
    if lang == "vi":
        assert head == "pagat, 2 người chơi, 3 lần chia x 2 vòng xoay = 6 ván"
        assert columns.split() == ["máy", "ván", "nhất", "%", "bét", "%", "hạng", "điểm/ván"]
    else:
        assert head == "pagat, 2 players, 3 deals x 2 rotations = 6 hands"
        assert columns.split() == ["bot", "hands", "first", "%", "last", "%", "place",
                                   "units/hand"]
    assert [r.split()[0] for r in rows] == ["greedy", "random"]  # the bots' names as they are
    for row in rows:
        if "[100.0," not in row and "[100,0;" not in row:  # an interval from 100% is wider than
            # its column, in any language
            _ends_under_headings(columns, row)


def _cells(line: str) -> list[str]:
    """The line as terminal cells (a wide character fills two, a combining mark none)."""
    from tienlen.i18n import width

    cells: list[str] = []
    for ch in line:
        if width(ch) == 0 and cells:
            cells[-1] += ch
        else:
            cells += [ch] * max(1, width(ch))
    return cells


def _ends_under_headings(columns: str, row: str) -> None:
    """Every right-aligned heading (all but the first; one ends where two spaces follow) ends in
    the column where the row's text under it ends."""
    heads, cells = _cells(columns), _cells(row)
    for i, ch in enumerate(heads):
        if ch != " " and heads[i + 1:i + 3] in ([], [" ", " "]) and i > len(heads) // 8:
            assert i < len(cells) and cells[i] != " ", (columns, row, i)
            assert i + 1 == len(cells) or cells[i + 1] == " ", (columns, row, i)


def test_the_tournament_table_from_the_environment_and_json_stays_neutral(
        tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = _env_run("vi_VN.UTF-8", "tournament", "--players", "2", "--bots", "greedy,random",
                      "--deals", "1", "--quiet", "--json", str(out))
    assert result.returncode == 0, result.stderr
    assert "[chưa có]: khoảng tin cậy cần ít nhất 2 lần chia" in result.stdout
    text = out.read_text(encoding="utf-8")
    assert '"rules": "pagat"' in text and "người" not in text and "máy" not in text


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_wide_or_decomposed_name_keeps_the_table_aligned(lang: str) -> None:
    from tienlen.arena import format_table

    row = {"hands": 2, "first_rate": 0.5, "first_ci": [0.25, 0.75], "last_rate": 0.5,
           "last_ci": [0.25, 0.75], "mean_place": 1.5, "place_ci": [1.0, 2.0], "mean_units": 0.0,
           "units_ci": [-1.0, 1.0]}
    names = ["ma\u0301y", "机器人", "greedy"]  # "máy" decomposed, three wide characters
    report = {"rules": "pagat", "players": 3, "deals": 2, "hands": 6, "failures": [],
              "bots": [{"name": n, **row} for n in names]}
    lines = format_table(report, lang).splitlines()[1:]
    for row in lines[1:]:
        _ends_under_headings(lines[0], row)
    assert len({len(_cells(line)) for line in lines}) == 1


def test_the_progress_in_vietnamese() -> None:
    import io

    from tienlen.arena import progress_bar

    stream = io.StringIO()
    ticks = iter(range(100))
    show = progress_bar(stream, clock=lambda: float(next(ticks)), lang="vi")
    for done in range(1, 5):
        show(done, 4)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "1/4 lần chia (25%), đã 0:01, còn khoảng 0:03"
    assert lines[-1] == "4/4 lần chia (100%), đã 0:04"


def test_bench_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "bench", "--hands", "20", "--lang", "vi")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("pagat, 4 người chơi, đánh ngẫu nhiên")
    labels = [line for line in lines[1:5]]
    assert labels[0].startswith("  ván chơi trọn:       20 ván trong ")
    values = {line.index(line.split(":", 1)[1].strip()) for line in labels if ":" in line[:25]}
    assert len(values) == 1  # the values start in one column
    assert lines[4].startswith(" " * (values.pop()))
    code, out, _ = _run(capsys, "bench", "--hands", "20")
    assert "  complete hands:        20 in " in out
    assert "\n  decisions:             " in out


def test_numbers_are_written_the_vietnamese_way(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """1.921 ván/giây and 0,35 giây: the thousands grouped with a dot, the decimals after a comma
    (bench and the tournament table); English keeps 1,921 and 0.35."""
    import re

    from tienlen.i18n import Num, number, t

    assert number(1921.4, ",.0f", "vi") == "1.921" and number(1921.4, ",.0f") == "1,921"
    assert number(0.354, ".2f", "vi") == "0,35" and number(-0.5, "+.3f", "vi") == "-0,500"
    assert t("bench.decisions.value", "vi", n=Num(79.06, ".1f")) == "79,1 mỗi ván"
    monkeypatch.setenv("TIENLEN_PURE", "1")
    code, out, _ = _run(capsys, "bench", "--hands", "1200", "--lang", "vi")
    assert code == 0
    assert re.search(r"1\.200 ván trong \d+,\d\d giây = \d{1,3}(\.\d{3})* ván/giây", out), out
    assert re.search(r"\d+,\d mỗi ván", out) and re.search(r"\d+,\d µs mỗi lần gọi", out)
    assert not re.search(r"\d,\d{3}|\d\.\d\b", out)  # no English number left
    code, out, _ = _run(capsys, "tournament", "--players", "2", "--bots", "greedy,random",
                        "--deals", "3", "--quiet", "--lang", "vi")
    rows = out.splitlines()[2:]
    assert all(re.search(r"\d+,\d \[ ?\d+,\d; ?\d+,\d\]", row) for row in rows), out
    assert "." not in "".join(rows)


# ---------------------------------------------------------------------- catalogues
def test_the_catalogues_are_composed_for_the_terminal() -> None:
    """Vietnamese letters precomposed (NFC): one column each, so padding lines up."""
    import unicodedata

    from tienlen.i18n import catalogue, width

    for lang in ("en", "vi"):
        for key, text in catalogue(lang).items():
            assert unicodedata.normalize("NFC", text) == text, (lang, key)
    assert width("Máy") == 3 and width("ma\u0301y") == 3 and width("机器") == 4


# ---------------------------------------------------------------------- LANG for each family
@pytest.mark.parametrize(("argv", "stream", "vietnamese"), [
    (["replay", "--text", "/no/such/record.toml"], "stderr",
     "tienlen: không đọc được '/no/such/record.toml': không có tệp hoặc thư mục này"),
    (["serve", "--max-tables", "0"], "stderr", "tienlen: max-tables phải từ 1 trở lên"),
    (["bench", "--hands", "5"], "stdout", "  ván chơi trọn:"),
    (["tournament", "--players", "2", "--deals", "1", "--quiet", "--bots", "greedy,random"],
     "stdout", "máy       ván"),
])
def test_each_family_follows_lang_from_the_environment(argv: list[str], stream: str,
                                                       vietnamese: str) -> None:
    if argv[0] == "serve":
        pytest.importorskip("uvicorn")
    said = getattr(_env_run("vi_VN.UTF-8", *argv), stream)
    assert vietnamese in said, said
    english = getattr(_env_run("en_US.UTF-8", *argv), stream)
    assert vietnamese not in english and english


def test_an_external_bot_failing_before_any_hand_in_vietnamese(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bot = tmp_path / "crash.py"
    bot.write_text('import sys\nprint("no model", file=sys.stderr)\nsys.exit(3)\n',
                   encoding="utf-8")
    argv = ["tournament", "--players", "2", "--deals", "1", "--quiet", "--bots",
            f"cmd:{sys.executable} {bot},random"]
    code, _, err = _run(capsys, *argv, "--lang", "vi")
    assert code == 2
    assert "hỏng ngay ở quyết định đầu tiên, trước khi chơi ván nào: nó bị sập (đầu ra của nó " \
        "đã đóng, mã thoát 3); cuối stderr của nó: no model" in err, err
    code, _, err = _run(capsys, *argv)
    assert "failed its first decision, before any hand was played: it crashed (its output " \
        "closed, exit code 3); its stderr ended with: no model" in err, err
    code, _, err = _run(capsys, "tournament", "--players", "2", "--deals", "1", "--quiet",
                        "--bots", "cmd:/no/such/bot,random", "--lang", "vi")
    assert "nó không khởi động được: không có tệp hoặc thư mục này" in err, err
