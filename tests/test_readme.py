"""What a newcomer meets first: the README's examples run as written, the reprs are calls that
work, a missing extra is named, and the package installs without warnings."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tienlen import Card, Play, Rules
from tienlen.shapes import PASS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONTINUES = "# continues the example above"


# ---------------------------------------------------------------------- the README's examples
def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def test_the_readme_shows_python_examples() -> None:
    assert len(python_blocks(README)) >= 2


def test_each_python_example_of_the_readme_runs_as_written() -> None:
    """In order; a block runs on its own, unless its first line says it continues the one
    before (then it runs with that block's names)."""
    names: dict[str, object] = {}
    for number, block in enumerate(python_blocks(README), 1):
        if not block.startswith(CONTINUES):
            names = {"__name__": f"readme_example_{number}"}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"README.md, python example {number}", "exec"), names)
        for said in re.findall(r'# "([^"]+?)…"', block):  # a comment quoting what it prints
            assert said in out.getvalue(), (number, said, out.getvalue())


# ---------------------------------------------------------------------- reprs are calls
@pytest.mark.parametrize("text", ["6h 7h 8c", "10♥ J♥ Q♥", "3s 5d", "2s 2h", "pass"])
def test_a_plays_repr_is_a_call_that_makes_it_again(text: str) -> None:
    play = Play.parse(text)
    again = eval(repr(play), {"Play": Play})
    assert again == play and again.shape == play.shape and str(again) == str(play)


def test_play_of_a_text_reads_it_as_parse_does() -> None:
    assert repr(Play("8c 6h 7h")) == "Play('6h 7h 8c')"
    assert Play("8c 6h 7h").shape == "run"
    assert Play("pass") == PASS and Play("pass").is_pass
    assert Play("3s 5d").shape is None
    with pytest.raises(ValueError, match="not a card"):
        Play("6h 7x")


def test_the_engines_constructor_is_unchanged() -> None:
    play = Play((0, 4, 8), "run", "alphabetical")
    assert (play.keys, play.shape, play.order) == ((0, 4, 8), "run", "alphabetical")
    assert Play((5,), None).shape is None  # a shape of None is a shape, not "read the text"
    rules = Rules.preset("viet-cong")  # twos stay out of runs
    assert Play("Js Qs Ks As 2s").shape == "run" and rules.play("Js Qs Ks As 2s").shape is None


def test_a_cards_repr_is_a_call_that_makes_it_again() -> None:
    card = Card.parse("10♥")
    assert repr(card) == "Card('Th')"
    assert eval(repr(card), {"Card": Card}) is card
    assert Card(card.code) is card


# ---------------------------------------------------------------------- a missing extra
_WITHOUT = """
import sys
class Missing:  # these packages are not installed
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Missing())
try:
    {code}
except ModuleNotFoundError as exc:
    print(exc.name)
    print(exc)
"""


def _without(blocked: set[str], code: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", _WITHOUT.format(blocked=blocked, code=code)],
                          capture_output=True, text=True, env=env, timeout=60, check=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize("code", ["import tienlen.rl; tienlen.rl.env()",
                                  "from tienlen.rl.single import SingleSeatEnv",
                                  "from tienlen.rl.aec import TienLenEnv"])
def test_an_environment_without_the_rl_extra_names_the_extra(code: str) -> None:
    name, message = _without({"numpy", "gymnasium", "pettingzoo"}, code)
    assert name in ("numpy", "gymnasium")
    assert "the rl extra" in message and "pip install -e '.[rl]'" in message, message


def test_openspiel_without_its_extra_names_it() -> None:
    name, message = _without({"pyspiel", "open_spiel"}, "import tienlen.rl.openspiel")
    assert name == "pyspiel"
    assert "the openspiel extra" in message and "pip install -e '.[openspiel]'" in message


def test_every_install_hint_is_a_command_that_works_from_a_checkout() -> None:
    """The package is not published: ``pip install 'tienlen[tui]'`` finds nothing."""
    texts = {"README.md": README}
    for folder in ("src/tienlen", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".json", ".md"):
                texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    wrong = [name for name, text in texts.items() if re.search(r"pip install '?tienlen\[", text)]
    assert not wrong
    assert "pip install -e '.[tui]'" in README


# ---------------------------------------------------------------------- packaging
def test_pyproject_builds_without_a_deprecation_warning() -> None:
    """setuptools refuses the license as a TOML table after 2027-02-18."""
    pytest.importorskip("setuptools")
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dist = apply_configuration(Distribution(), ROOT / "pyproject.toml")
    assert dist.metadata.license_expression == "MIT"


# ---------------------------------------------------------------------- scripts/play.sh
_STUB = """#!/usr/bin/env bash
echo "$(basename "$0") $*" >> "$(dirname "$0")/../calls"
"""


def _checkout(tmp_path: Path) -> Path:
    """A checkout whose .venv holds stand-ins: python (pip), tienlen, ruff and mypy note their
    arguments; the web tests' services are left out."""
    (tmp_path / "scripts").mkdir()
    for script in ("play.sh", "test.sh", "install.sh"):
        (tmp_path / "scripts" / script).write_text((ROOT / "scripts" / script).read_text())
    (tmp_path / "scripts" / "web_services.sh").write_text("")
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for name in ("python", "tienlen", "ruff", "mypy"):
        (bin_ / name).write_text(_STUB)
        (bin_ / name).chmod(0o755)
    (bin_ / "activate").write_text(f'PATH="{bin_}:$PATH"\n')
    return tmp_path


def _play(checkout: Path, *argv: str, script: str = "play.sh") -> tuple[list[str], str]:
    calls = checkout / ".venv" / "calls"
    calls.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    done = subprocess.run(["bash", f"scripts/{script}", *argv], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return [call.rstrip() for call in calls.read_text().splitlines()], done.stderr


def test_play_sh_installs_once_until_pyproject_changes_then_says_how_to_reach_tienlen(
        tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    calls, said = _play(checkout, "--seed", "3")
    assert calls == ["python -m pip install -q -e .[tui]", "tienlen play --seed 3"]
    assert ". .venv/bin/activate" in said and f"{checkout}/.venv/bin/tienlen" in said
    calls, _ = _play(checkout)
    assert calls == ["tienlen play"]  # nothing changed: no reinstall
    with (checkout / "pyproject.toml").open("a") as f:
        f.write("\n# a change\n")
    calls, _ = _play(checkout)
    assert calls == ["python -m pip install -q -e .[tui]", "tienlen play"]


# ---------------------------------------------------------------------- scripts/test.sh
def test_test_sh_installs_once_until_pyproject_changes_and_runs_pytest_across_the_cores(
        tmp_path: Path) -> None:
    checkout = _checkout(tmp_path)
    fast, install = "python -m pip install -q -e .[fast]", "python -m pip install -q -e .[test]"
    calls, _ = _play(checkout, "-q", script="test.sh")
    # numba first, so the fast path compiles (its call in any place after) while the rest
    # installs and ruff then mypy run; pytest last
    assert calls[0] == fast and calls[-1] == "python -m pytest -n auto --dist worksteal -q"
    assert 0 < calls.index(install) < calls.index("ruff check src tests benchmarks") \
        < calls.index("mypy") < len(calls) - 1
    compiles = [i for i, c in enumerate(calls) if c.startswith("python -c from tienlen import Rules")]
    assert len(compiles) == 1 and 0 < compiles[0] < len(calls) - 1
    calls, _ = _play(checkout, script="test.sh")
    assert fast not in calls and install not in calls  # nothing changed: no reinstall
    with (checkout / "pyproject.toml").open("a") as f:
        f.write("\n# a change\n")
    calls, _ = _play(checkout, script="test.sh")
    assert calls[0] == fast and install in calls
