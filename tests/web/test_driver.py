"""The driver (web/table/driver.py) on its own: tables that owe a bot move, a store that keeps or
refuses the batch, and passes arranged on a time the test moves by hand (manual_time.py). No
server, no event loop, no database."""

from __future__ import annotations

from typing import Any

from tienlen import PASS
from tienlen.web.storage import Entry, StorageError, Write
from tienlen.web.table.driver import Driver, Staged

from .manual_time import ManualTime


class Store:
    """The driver's repository: keeps each batch it is given, or refuses them all."""

    def __init__(self, said: list[str]) -> None:
        self.said = said
        self.batches: list[list[Write]] = []
        self.refuse = False

    def append_many(self, writes: list[Write]) -> None:
        if self.refuse:
            self.said.append("refused")
            raise StorageError("the database is away")
        self.batches.append(writes)
        self.said.append("stored " + " ".join(w.table_id for w in writes))


class Owing:
    """A table that owes one bot move at each version (``owes`` False: none)."""

    def __init__(self, name: str, said: list[str]) -> None:
        self.id = name
        self.version = 0
        self.owes = True
        self.said = said
        self.scheduled: list[float] = []

    def bot_action(self) -> Staged | None:
        if not self.owes:
            return None
        write = Write(self.id, Entry(self.version, "bot_move", 0, "pass"))
        return Staged(write, 0, PASS, 0.0)

    def install(self, staged: Staged) -> None:
        assert staged.write.entry.idx == self.version
        self.version += 1
        self.said.append(f"made {self.id}")

    def changed(self, at: float | None = None) -> None:
        self.said.append(f"told {self.id}")

    def schedule(self, at_least: float = 0.0) -> None:
        self.scheduled.append(at_least)


def driven(*names: str) -> tuple[Driver, Store, list[Owing], ManualTime, list[str]]:
    said: list[str] = []
    store = Store(said)
    time = ManualTime()
    repo: Any = store
    driver = Driver(repo, budget=10.0, retry=1.0, time=time)
    return driver, store, [Owing(name, said) for name in names], time, said


def test_the_moves_of_many_tables_are_stored_in_one_write_before_any_is_made() -> None:
    driver, store, (a, b), time, said = driven("a", "b")
    driver.due(a, 0)
    driver.due(b, 0)
    driver.due(a, 0)  # told twice: one move
    assert said == []  # nothing until the loop's next pass
    time.advance()
    assert said == ["stored a b", "made a", "made b", "told a", "told b"]
    assert (a.version, b.version) == (1, 1) and [len(batch) for batch in store.batches] == [2]
    assert (driver.stats.batches, driver.stats.moves) == (1, 2)


def test_a_batch_the_database_refuses_makes_no_move_and_each_table_tries_later() -> None:
    driver, store, (a, b), time, said = driven("a", "b")
    store.refuse = True
    driver.due(a, 0)
    driver.due(b, 0)
    time.advance()
    assert said == ["refused"] and (a.version, b.version) == (0, 0)
    assert a.scheduled == [1.0] and b.scheduled == [1.0]  # the retry
    assert driver.stats.refused == 1 and driver.stats.moves == 0


def test_a_table_that_moved_on_or_owes_nothing_is_asked_again_later() -> None:
    driver, store, (a, b), time, said = driven("a", "b")
    driver.due(a, 0)
    a.version = 1  # a person moved meanwhile
    b.owes = False
    driver.due(b, 0)
    time.advance()
    assert said == [] and store.batches == []
    assert a.scheduled == [0.0] and b.scheduled == [0.0]


def test_a_failing_table_does_not_stop_the_others() -> None:
    driver, _, (a, b), time, said = driven("a", "b")

    def fails() -> Staged | None:
        raise RuntimeError("the bot fell over")

    a.bot_action = fails  # type: ignore[method-assign]
    driver.due(a, 0)
    driver.due(b, 0)
    time.advance()
    assert said == ["stored b", "made b", "told b"]
    assert a.scheduled == [driver.retry]


def test_tables_due_while_a_pass_runs_go_in_the_next_pass() -> None:
    driver, _, owing, time, said = driven("t0", "t1", "t2")
    first, *rest = owing

    def told(at: float | None = None) -> None:  # the first table's news makes the others due
        said.append("told t0")
        for table in rest:
            driver.due(table, 0)

    first.changed = told  # type: ignore[method-assign]
    driver.due(first, 0)
    time.advance()
    assert said == ["stored t0", "made t0", "told t0", "stored t1 t2", "made t1", "made t2",
                    "told t1", "told t2"]
    assert driver.stats.batches == 2

