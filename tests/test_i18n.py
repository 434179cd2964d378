"""The message catalogues: every key in both languages with the same placeholders, every key the
code uses present, no player-visible English left outside them; the languages chosen."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tienlen import Game, IllegalPlay, Rules, cli
from tienlen.i18n import LANGS, PLACEHOLDER, Msg, card_name, catalogue, env_lang, pick_lang, render, t

SRC = Path(__file__).resolve().parents[1] / "src" / "tienlen"
STATIC = SRC / "web" / "static"
# keys whose English is empty on purpose (a word only Vietnamese has, a phase with no title)
EMPTY_OK = {("en", "place.last"), ("en", "web.phase.play"), ("vi", "web.phase.play")}


def test_every_key_is_in_both_catalogues() -> None:
    en, vi = catalogue("en"), catalogue("vi")
    assert sorted(set(en) - set(vi)) == [], "keys only in English"
    assert sorted(set(vi) - set(en)) == [], "keys only in Vietnamese"
    for lang in LANGS:
        empty = [k for k, v in catalogue(lang).items() if not v.strip() and (lang, k) not in EMPTY_OK]
        assert empty == [], (lang, empty)


def test_the_same_named_placeholders_in_both_languages() -> None:
    en, vi = catalogue("en"), catalogue("vi")
    wrong = {k: (en[k], vi[k]) for k in en
             if set(PLACEHOLDER.findall(en[k])) != set(PLACEHOLDER.findall(vi[k]))}
    assert wrong == {}


def test_the_catalogues_are_plain_json_objects_of_strings() -> None:
    for lang in LANGS:
        data = json.loads((SRC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())


def test_each_key_is_written_once_in_each_catalogue() -> None:
    # JSON keeps the last of two entries of one key: the first would be lost without a word
    for lang in LANGS:
        pairs = json.loads((SRC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"),
                           object_pairs_hook=lambda items: items)
        keys = [key for key, _ in pairs]
        assert sorted({k for k in keys if keys.count(k) > 1}) == [], lang


# ---------------------------------------------------------------------- keys used by the code
def _page_keys() -> set[str]:
    keys: set[str] = set()
    for path in (p for p in STATIC.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([\w.]+)"', text))
        keys |= set(re.findall(r'\bt\("([\w.]+)"', text))
        keys |= set(re.findall(r'\btr\("([\w.]+)"', text))
        keys |= {f"{k}.{f}" for k in re.findall(r'\btn\("([\w.]+)"', text) for f in ("one", "other")}
    return keys


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    missing = sorted(k for k in _page_keys() if k not in catalogue("en"))
    assert missing == []


def _python_keys(path: Path) -> set[str]:
    keys: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            value = node.args[0].value
            if name in ("msg", "t", "Msg", "_illegal") and isinstance(value, str) and "." in value:
                keys.add(value)
            if name == "tn" and isinstance(value, str):
                keys |= {f"{value}.one", f"{value}.other"}
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "error" \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            keys.add(node.args[1].value)  # error(CardError, "err.card.bad", ...)
    return keys


@pytest.mark.parametrize("module", ["explain.py", "cli.py", "tui/app.py", "play/controller.py",
                                    "web/room/room.py", "web/lobby/lobby.py", "web/accounts/names.py",
                                    "rules_text.py", "cards.py", "shapes.py", "actions.py",
                                    "chops.py", "rules.py", "game.py", "web/routes/socket.py",
                                    "web/services.py", "web/http/problems.py",
                                    "web/routes/records.py", "web/routes/pages.py",
                                    "web/room/protocol.py", "web/limits.py", "arena.py",
                                    "bots/__init__.py", "paywords.py", "record.py", "bench.py",
                                    "fast/bench.py", "web/server.py", "bots/search.py",
                                    "web/accounts/accounts.py", "web/accounts/identity.py",
                                    "web/moderation/moderation.py", "web/moderation/store.py",
                                    "web/http/origin.py", "web/accounts/profiles.py",
                                    "web/ratings/store.py", "web/routes/accounts.py",
                                    "web/routes/moderation.py", "web/routes/players.py",
                                    "bots/learned.py", "bots/external.py", "web/storage.py",
                                    "web/room/chat.py", "web/schema.py", "web/admin.py",
                                    "web/tablelog/repository.py", "web/routes/ops.py",
                                    "web/ops/options.py", "web/ops/metrics.py"])
def test_every_key_the_code_uses_is_in_the_catalogue(module: str) -> None:
    keys = _python_keys(SRC / module)
    assert keys, module
    assert sorted(k for k in keys if k not in catalogue("en")) == []


# ---------------------------------------------------------------------- nothing escapes
def test_no_text_of_the_page_escapes_the_catalogue() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    body = html.split("<body>", 1)[1]
    # every element's own text is given by data-i18n (its English stays as the no-script text)
    for m in re.finditer(r"<(\w+)([^>]*)>([^<]*[A-Za-z]{3,}[^<]*)<", body):
        tag, attrs, text = m.groups()
        if tag == "option" and 'value="' in attrs and text.strip() in ("English", "Tiếng Việt"):
            continue  # a language is named in its own language
        if "brand" in attrs or text.strip() in ("Tiến Lên",):
            continue
        assert "data-i18n=" in attrs, (tag, text)
    for m in re.finditer(r'(placeholder|aria-label)="([^"]*)"', body):
        tail = body[m.end():m.end() + 200].split(">", 1)[0]
        assert f"data-i18n-{m.group(1)}=" in body[m.start() - 300:m.end()] + tail, m.group(0)


# words that are not prose: CSS, element and event names, protocol values
_JS_OK = re.compile(r"^(?:[\w.#:\-\[\]=\"' ,*/()>]+|[a-z_]+(?: [a-z_]+)?)$")


def test_no_english_sentence_in_the_page_scripts() -> None:
    """A string the page shows is never a literal: textContent, text:, title, aria-label and
    the reasons shown all come from t()/tn()."""
    for path in STATIC.rglob("*.js"):
        if path.name == "i18n.js":
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in (r'textContent\s*=\s*[`"]([^`"]*)[`"]', r'\btext:\s*[`"]([^`"]*)[`"]',
                        r'"aria-label":\s*[`"]([^`"]*)[`"]', r'\btitle:\s*[`"]([^`"]*)[`"]',
                        r'showReason\([`"]([^`"]*)[`"]', r'confirm\([`"]([^`"]*)[`"]'):
            for m in re.finditer(pattern, text):
                assert not re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}|^[A-Z][a-z]+", m.group(1)), \
                    (path.name, m.group(0))


def _prose(node: ast.AST) -> list[str]:
    """The English words in a string or f-string: two words in a row, outside placeholders."""
    parts = [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else \
        [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)] \
        if isinstance(node, ast.JoinedStr) else []
    return [p for p in parts if re.search(r"[A-Za-z]{2,}[ ,:;'] ?[A-Za-z]{2,}", p)]


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            ids.add(id(node.body[0].value))
    return ids


@pytest.mark.parametrize("module", ["explain.py", "web/room/views.py"])
def test_the_explanations_hold_no_english(module: str) -> None:
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    prose = [p for node in ast.walk(tree) if id(node) not in docs
             and not isinstance(getattr(node, "parent", None), ast.JoinedStr)
             for p in _prose(node)]
    assert prose == []


def test_the_terminal_game_says_nothing_outside_the_catalogue() -> None:
    """Every text the terminal app shows goes through the catalogue: no literal sentence is given
    to what draws it (messages, prompts, titles, panels)."""
    tree = ast.parse((SRC / "tui" / "app.py").read_text(encoding="utf-8"))
    shown_by = {"_say", "Text", "Static", "update", "append"}
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in shown_by:
                bad += [p for a in node.args[:1] for p in _prose(a)]  # the text (then a style)
        if isinstance(node, ast.Assign) and any(getattr(t_, "attr", "") == "border_title"
                                                for t_ in node.targets):
            bad += _prose(node.value)
    assert bad == []


# ---------------------------------------------------------------------- the languages
def test_languages_are_picked_from_headers_and_the_environment() -> None:
    assert pick_lang("vi") == "vi"
    assert pick_lang("fr-FR,vi;q=0.8") == "vi"
    assert pick_lang("en-GB,en;q=0.9") == "en"
    assert pick_lang("de") == "en" and pick_lang("") == "en"
    assert env_lang({"LANG": "vi_VN.UTF-8"}) == "vi"
    assert env_lang({"LC_ALL": "en_US.UTF-8", "LANG": "vi_VN.UTF-8"}) == "en"
    assert env_lang({"LC_ALL": "", "LANG": "C.UTF-8"}) == "en"
    assert env_lang({}) == "en"


def test_card_names_for_screen_readers() -> None:
    assert card_name("Qh", "en") == "queen of hearts"
    assert card_name("Qh", "vi") == "quân đầm cơ"
    assert card_name("2s", "vi") == "quân heo bích"
    assert card_name("Tc", "vi") == "quân mười chuồn"
    assert card_name("Ad", "en") == "ace of diamonds"


def test_a_refused_play_is_explained_in_both_languages() -> None:
    game = Game(Rules.preset("pagat"), hands=[["3s", "5c"], ["4s", "6c"], ["7c"], ["8c"]],
                leader=0)
    with pytest.raises(IllegalPlay) as info:
        game.play("4s", seat=1)
    reason = info.value.reason
    assert isinstance(reason, Msg)
    assert render(reason, "en") == str(info.value)
    vi = render(reason, "vi")
    assert vi != str(info.value) and "lượt" in vi
    assert "{" not in vi


def test_a_pair_of_twos_and_its_chops_in_vietnamese() -> None:
    rules = Rules.preset("pagat")
    hands = ["2s 2h 5c", "3c 3d 4s 4h 5s 5h 6c", "7c", "8c"]
    game = Game(rules, hands=[list(map(str, h.split())) for h in hands], leader=0)
    game.play("2s 2h", seat=0)
    with pytest.raises(IllegalPlay) as info:
        game.play("3c 3d 4s 4h 5s 5h", seat=1)
    vi = render(info.value.reason, "vi")
    assert "đôi heo" in vi and "đôi thông" in vi, vi


def test_tienlen_rules_explains_in_vietnamese(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "mien-nam", "--explain", "--lang", "vi"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tiến Lên: luật mien-nam")
    assert cli.main(["rules", "mien-nam", "--explain", "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("Tiến Lên: the mien-nam rules")


def test_english_stays_the_default() -> None:
    assert t("web.room.play") == "Play"
    assert t("web.room.play", "xx") == "Play"  # an unknown language: English


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_rules_of_every_preset_are_all_in_vietnamese(preset: str) -> None:
    from tienlen.rules_text import untranslated

    assert untranslated(Rules.preset(preset), "vi") == []


# errors a person reads: raised with a catalogue message (errors.error), never an English literal
# (argparse's own words come from the catalogue too: cli._argparse_words)
_SHOWN_ERRORS = {"CardError", "RulesError", "UnreadableAction", "TienLenError", "Refused", "too_many",
                 "ProtocolError", "HTTPException", "RecordError", "ArgumentError", "StorageError",
                 "ArgumentTypeError"}


def _english_said(tree: ast.AST) -> list[str]:
    """Prose given to an error a person reads, to a web error event, or printed."""
    bad: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if name in _SHOWN_ERRORS or name == "print":
            bad += [p for a in node.args for p in _prose(a)]
        if name == "Error":
            bad += [p for k in node.keywords if k.arg == "reason" for p in _prose(k.value)]
    return bad


@pytest.mark.parametrize("module", ["cards.py", "shapes.py", "actions.py", "chops.py", "rules.py",
                                    "cli.py", "lineplay.py", "play/controller.py", "tui/app.py",
                                    "tui/replay.py", "web/app.py", "web/routes/socket.py",
                                    "web/services.py", "web/http/problems.py", "web/routes/lobby.py",
                                    "web/routes/records.py", "web/routes/pages.py", "web/lobby/lobby.py",
                                    "web/room/room.py", "web/room/protocol.py", "web/limits.py",
                                    "record.py", "arena.py", "bench.py", "fast/bench.py",
                                    "web/server.py", "web/storage.py", "bots/__init__.py",
                                    "web/accounts/accounts.py", "web/accounts/identity.py",
                                    "web/moderation/moderation.py", "web/moderation/store.py",
                                    "web/http/origin.py", "web/accounts/passwords.py",
                                    "web/records/played.py", "web/accounts/profiles.py",
                                    "web/accounts/session.py", "web/ratings/ratings.py",
                                    "web/ratings/store.py",
                                    "web/routes/accounts.py", "web/routes/moderation.py",
                                    "web/routes/players.py", "web/schema.py", "web/admin.py",
                                    "web/tablelog/repository.py",
                                    "bots/search.py", "bots/learned.py", "bots/external.py",
                                    "web/routes/ops.py", "web/ops/options.py", "web/ops/metrics.py"])
def test_no_english_error_or_message_outside_the_catalogue(module: str) -> None:
    assert _english_said(ast.parse((SRC / module).read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize("module", ["bots/search.py", "bots/learned.py", "web/limits.py"])
def test_a_bad_option_value_is_said_from_the_catalogue(module: str) -> None:
    """The bots' and the server's checks of an option's value raise a catalogue message (a
    ValueError of theirs would reach the player in English)."""
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    raised = [node for node in ast.walk(tree) if isinstance(node, ast.Raise)
              and isinstance(node.exc, ast.Call)
              and getattr(node.exc.func, "id", "") in ("ValueError", "TypeError")]
    assert raised == []


def _help_texts(tree: ast.AST) -> list[str]:
    """Prose literals given to argparse as what --help shows: help=, description=, a group's
    title."""
    bad: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        bad += [p for k in node.keywords if k.arg in ("help", "description", "title", "epilog")
                for p in _prose(k.value)]
        if name == "add_argument_group":
            bad += [p for a in node.args[:1] for p in _prose(a)]
    return bad


@pytest.mark.parametrize("module", ["cli.py", "web/server.py", "web/ops/options.py"])
def test_the_help_of_the_command_line_comes_from_the_catalogue(module: str) -> None:
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    assert _help_texts(tree) == []
    # and every help key it names (h("play.bots") is cli.help.play.bots) is in the catalogue
    prefix = "cli.help." if module == "cli.py" else "cli.help.serve."
    keys = {prefix + node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "h"
            and node.args and isinstance(node.args[0], ast.Constant)}
    assert keys
    assert sorted(k for k in keys if k not in catalogue("en")) == []


# what the command line prints as results (tables, figures, the server's start-up lines): every
# sentence from the catalogue, the numbers and the bots' names as they are
_PRINTED_BY = {"arena.py": ("format_table", "failure_lines", "progress_bar", "_interval"),
               "bench.py": ("report", "timing_rows"),
               "fast/bench.py": ("report", "fast_report"), "web/server.py": ("serve", "limits_text"),
               "cli.py": ("_cmd_bench", "_cmd_tournament", "_cmd_serve", "replay_text")}


@pytest.mark.parametrize("module", list(_PRINTED_BY))
def test_the_tables_and_figures_hold_no_english(module: str) -> None:
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = set()
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in _PRINTED_BY[module]:
            found.add(node.name)
            bad += [(node.name, p) for inner in ast.walk(node) if id(inner) not in docs
                    for p in _prose(inner)]
    assert found == set(_PRINTED_BY[module])
    assert bad == []
