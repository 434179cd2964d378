"""What a browser fetches to open the room, and again on its next visit: the page, its files
and its words are sent compressed; the words are kept by the browser and asked again only
whether they changed; the API's answers are never compressed (BREACH: see
``tienlen.web.http.compress``)."""

from __future__ import annotations

import gzip

import pytest

pytest.importorskip("fastapi")

import httpx

from .conftest import Server

GZIP = {"Accept-Encoding": "gzip"}


def sent(server: Server, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes,
                                                                                    httpx.Headers]:
    """The status, the bytes that crossed the wire and the headers of a GET of ``path``."""
    with httpx.Client(base_url=server.base, timeout=30) as client, \
            client.stream("GET", path, headers={**GZIP, **(headers or {})}) as response:
        body = b"".join(response.iter_raw())
        return response.status_code, body, response.headers


@pytest.mark.parametrize("path", ["/", "/static/style.css", "/static/table/table.js",
                                  "/i18n/en.json", "/i18n/vi.json"])
def test_the_pages_files_are_sent_compressed(server: Server, path: str) -> None:
    status, body, headers = sent(server, path)
    assert status == 200 and headers["content-encoding"] == "gzip"
    whole = gzip.decompress(body)
    assert len(body) < len(whole) / 2.5  # text: several times smaller
    plain = httpx.get(server.base + path, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert "content-encoding" not in plain.headers and plain.content == whole


def test_the_apis_answers_are_never_compressed(server: Server) -> None:
    status, body, headers = sent(server, "/api/presets/mien-nam")  # some kilobytes of words
    assert status == 200 and "content-encoding" not in headers and len(body) > 2000
    assert b"explain" in body


def test_the_words_are_kept_and_asked_again_only_whether_they_changed(server: Server) -> None:
    status, _, headers = sent(server, "/i18n/vi.json")
    tag = headers["etag"]
    assert status == 200 and headers["cache-control"] == "no-cache" and tag.startswith('"')
    again = sent(server, "/i18n/vi.json", {"If-None-Match": tag})
    assert again[0] == 304 and again[1] == b"" and again[2]["etag"] == tag
    weak = sent(server, "/i18n/vi.json", {"If-None-Match": f'"other", W/{tag}'})
    assert weak[0] == 304
    english = sent(server, "/i18n/en.json", {"If-None-Match": tag})  # another file's tag
    assert english[0] == 200 and english[2]["etag"] != tag
    assert sent(server, "/i18n/vi.json", {"If-None-Match": '"stale"'})[0] == 200


def test_the_pages_files_are_kept_and_asked_again_only_whether_they_changed(
        server: Server) -> None:
    status, _, headers = sent(server, "/static/table/table.js")
    assert status == 200 and headers.get("etag")
    again = sent(server, "/static/table/table.js", {"If-None-Match": headers["etag"]})
    assert again[0] == 304 and again[1] == b""


def test_the_page_is_sent_its_own_words_not_the_terminals() -> None:
    from tienlen.web.http.page_words import named_in, page_keys

    script = 'h("p", { text: t("web.room.pass") }); tn("web.hands", n); t(`chat.phrase.${k}`); ' \
             "t(`rank.${r}`); const x = 'not a key';"
    named = named_in([script])
    assert named == {"web.room.pass", "web.hands", "chat.phrase", "rank"}
    keys = ["web.room.pass", "web.room.passed", "web.hands.one", "web.hands.other", "chat.phrase.gg",
            "rank.10", "cli.play.help", "tui.key.play", "web"]
    assert page_keys(keys, named) == ["web.room.pass", "web.hands.one", "web.hands.other",
                                      "chat.phrase.gg", "rank.10"]


def test_the_words_sent_are_the_pages_a_quarter_of_the_catalogue(server: Server) -> None:
    from tienlen.i18n import catalogue, catalogue_text

    for lang in ("en", "vi"):
        answer = httpx.get(f"{server.base}/i18n/{lang}.json", timeout=30)
        words, whole = answer.json(), catalogue(lang)
        assert words["web.room.pass"] == whole["web.room.pass"]
        assert "tui.bot_name" in words and "chat.phrase.good_game" in words and "rank.T" in words
        assert not any(k.startswith(("cli.", "argparse.", "bench.", "tui.key.")) for k in words)
        assert len(answer.content) < len(catalogue_text(lang).encode()) / 3
    assert set(httpx.get(f"{server.base}/i18n/vi.json", timeout=30).json()) == set(words)


def test_a_word_a_language_lacks_is_sent_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    from tienlen.i18n import catalogue
    from tienlen.web.http import page_words
    from tienlen.web.routes.pages import STATIC

    vi = {k: v for k, v in catalogue("vi").items() if k != "web.room.pass"}
    monkeypatch.setattr(page_words, "catalogue", lambda lang: vi if lang == "vi" else catalogue(lang))
    words = page_words.page_catalogue("vi", STATIC)
    assert words["web.room.pass"] == "Pass" and words["web.room.play"] == catalogue("vi")["web.room.play"]
