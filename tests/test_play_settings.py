"""The terminal player's settings kept between runs (play/settings.py): the pace, auto-pass and
the deck's colours in $XDG_CONFIG_HOME/tienlen/play.toml; a file that cannot be used never
stops the game, and says what is wrong with it."""

from __future__ import annotations

from pathlib import Path

from tienlen.play.settings import (
    MOST_BYTES,
    PlaySettings,
    config_dir,
    load_settings,
    save_settings,
    settings_path,
)


def test_the_settings_live_in_the_xdg_config_folder(tmp_path: Path) -> None:
    assert settings_path({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "tienlen" / "play.toml"
    home = Path.home() / ".config" / "tienlen"
    assert config_dir({}) == home
    assert config_dir({"XDG_CONFIG_HOME": "relative/dir"}) == home  # as the specification says


def test_what_was_chosen_comes_back_at_the_next_run(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "tienlen" / "play.toml"
    assert load_settings(path) == (PlaySettings(), None)  # no file yet: the defaults, quietly
    chosen = PlaySettings(pace=0.15, auto_pass=True, four_colour=True)
    assert save_settings(chosen, path) is None
    assert load_settings(path) == (chosen, None)
    assert not list(path.parent.glob("*.part"))  # written beside, then put in its place


def test_a_file_that_is_not_toml_is_named_and_the_defaults_are_played(tmp_path: Path) -> None:
    path = tmp_path / "play.toml"
    path.write_text("pace = = 3\n")
    settings, problem = load_settings(path)
    assert settings == PlaySettings()
    assert problem is not None and str(path) in problem and "not TOML" in problem


def test_values_it_does_not_take_are_named_and_the_others_kept(tmp_path: Path) -> None:
    path = tmp_path / "play.toml"
    path.write_text('pace = 0.4\nauto_pass = "yes"\nfour_colour = true\ncolour = 1\n'
                    "[nested]\nx = 1\n")
    settings, problem = load_settings(path)
    assert settings == PlaySettings(pace=0.4, four_colour=True)
    assert problem is not None
    assert "'auto_pass'" in problem and "'colour'" in problem and "'nested'" in problem
    assert "'pace'" not in problem and "1.6, 0.8, 0.4, 0.15, 0" in problem


def test_a_pace_not_offered_or_not_a_number_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "play.toml"
    for bad in ("0.5", "nan", "inf", "-0.8", "true", '"0.8"', "1e999"):
        path.write_text(f"pace = {bad}\n")
        settings, problem = load_settings(path)
        assert settings.pace == PlaySettings().pace and problem is not None, bad


def test_a_file_too_large_or_unreadable_or_unwritable_is_said(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MOST_BYTES + "\n")
    assert "larger" in (load_settings(big)[1] or "")
    folder = tmp_path / "a-folder.toml"
    folder.mkdir()
    settings, problem = load_settings(folder)
    assert settings == PlaySettings() and problem is not None and str(folder) in problem
    blocked = tmp_path / "file"
    blocked.write_text("")
    problem = save_settings(PlaySettings(), blocked / "play.toml")  # its folder is a file
    assert problem is not None and "could not be kept" in problem


def test_bytes_that_are_not_utf8_are_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "play.toml"
    path.write_bytes(b"pace = 0.8\n\xff\xfe\n")
    assert "not TOML" in (load_settings(path)[1] or "")
