"""Ratings: one per player and rating family, updated from each rated hand's finish order.

openskill's Plackett-Luce model rates a whole finish order at once, every seat of it, bots
included. Each bot level is a rated player whose rating is fixed (its anchor, measured by
the arena: ``anchors.py``, written by ``scripts/ratings_anchors.py``), so a player
who only meets bots still gets a real rating, and no hand moves an anchor. A rating is
provisional for its first :data:`PROVISIONAL_HANDS` rated hands. Players see one number,
:func:`shown`: the model's mean on the scale card and chess rooms use (a newcomer at 1500);
the leaderboard ranks by it. Keeping ratings is ``store.py``'s job.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from ...rules import Rules
from ..tablelog.writes import TableSettings
from .anchors import MEASURED

# openskill's defaults: a new player's mean and spread, and the performance spread
MU: Final = 25.0
SIGMA: Final = MU / 3
BETA: Final = MU / 6
PROVISIONAL_HANDS: Final = 20
# the number players see: a newcomer at 1500, and one performance spread (BETA) of skill worth
# 200 points, the gap at which the better of two players finishes ahead about three times in
# four (Phi(1 / sqrt 2) = 0.76), as 200 Elo points do in chess
SHOWN_START: Final = 1500
SHOWN_PER_BETA: Final = 200

# each family is its own rating: the presets whose play is alike enough to share one
FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    "southern": ("mien-nam", "viet-cong", "killer", "thirteen"),
    "northern": ("mien-bac",),
    "published": ("pagat", "parlett", "justus-pang", "kenneth-lu", "cardrules"),
}
# the preset the arena plays to measure a family's anchors
MEASURED_PRESET: Final[dict[str, str]] = {
    "southern": "mien-nam", "northern": "mien-bac", "published": "pagat"}
_FAMILY_OF: Final = {preset: family for family, presets in FAMILIES.items() for preset in presets}

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


def family_of(preset: str) -> str | None:
    """The rating family of a preset (None: a rules set of no family, ``custom``)."""
    return _FAMILY_OF.get(preset)


def shown(mu: float) -> int:
    """A skill mean as players see it: ``shown(MU) == 1500``; 200 points a performance spread."""
    return round(SHOWN_START + (mu - MU) * SHOWN_PER_BETA / BETA)


def shown_spread(sigma: float) -> int:
    """A skill's spread (sigma) in the points of :func:`shown`."""
    return round(sigma * SHOWN_PER_BETA / BETA)


def rated_family(settings: TableSettings) -> str | None:
    """The family a table's hands are rated in, or None when they are not rated: a practice
    table (a fixed seed: its deals are known), or rules changed from their preset."""
    if settings.fixed_seed:
        return None
    rules = Rules.from_toml(settings.rules_toml)
    if rules.differences():
        return None
    return family_of(rules.name)


@dataclass(frozen=True)
class Rating:
    """A player's rating in one family: the mean and spread of the skill it believes in,
    the rated hands and the first places they took."""

    mu: float = MU
    sigma: float = SIGMA
    hands: int = 0
    firsts: int = 0

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the skill the player has with little doubt (kept in the API's answers;
        the page shows :attr:`shown`)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as players see it (:func:`shown`), the leaderboard's key."""
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.hands < PROVISIONAL_HANDS


@dataclass(frozen=True)
class Bot:
    """A seat a bot of this level plays: rated at its family's anchor, never updated."""

    level: str


Seated = str | Bot  # a player's id, or a bot


def anchor(family: str, level: str) -> Rating:
    """A bot level's fixed rating in a family (KeyError: no measured anchor)."""
    mu, sigma = MEASURED[family]["anchors"][level]
    return Rating(float(mu), float(sigma))


def places(finish_order: Sequence[int], left: Collection[int] = ()) -> list[int]:
    """Each seat's place (0 first) from the hand's finish order; the seats whose players left
    before the end share the last place, behind everyone who stayed."""
    stayed = [seat for seat in finish_order if seat not in left]
    out = [len(stayed)] * len(finish_order)
    for place, seat in enumerate(stayed):
        out[seat] = place
    return out


def rate_hand(family: str, seats: Sequence[Seated], finish_order: Sequence[int],
              ratings: Mapping[str, Rating], left: Collection[int] = ()) -> dict[str, Rating]:
    """The players' new ratings after one rated hand: ``seats`` says who sat where (a
    player's id or a :class:`Bot`), ``finish_order`` the seats by place (``Game.finish_order``),
    ``ratings`` the players' ratings before it (a player missing: a new rating), ``left`` the
    seats whose players left before the end (rated last). Bots keep their anchors."""
    if sorted(finish_order) != list(range(len(seats))):
        raise ValueError(f"the finish order {list(finish_order)} is not one of {len(seats)} seats")
    players = [s for s in seats if isinstance(s, str)]
    if len(set(players)) != len(players):
        raise ValueError("a player sits at two seats of one rated hand")
    if not players:
        return {}
    before = [ratings.get(s, Rating()) if isinstance(s, str) else anchor(family, s.level)
              for s in seats]
    ranks = places(finish_order, left)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return {seat: Rating(team[0].mu, team[0].sigma, old.hands + 1,
                         old.firsts + (ranks[i] == 0 and i not in left))
            for i, (seat, old, team) in enumerate(zip(seats, before, after, strict=True))
            if isinstance(seat, str)}
