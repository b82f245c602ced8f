"""The account database: snapshot/reset, validation helpers (no server)."""

from __future__ import annotations

import pytest

from reefbench.envs.services import contacts, files, tasks
from reefbench.envs.services.store import (
    Store,
    StoreError,
    digits,
    get_setting,
    parse_date,
    parse_datetime,
    parse_time,
)


def test_reset_returns_to_the_last_snapshot() -> None:
    store = Store()
    with store.write() as db:
        contacts.add_contact(db, "Seeded Person", phone="1")
    store.snapshot()
    with store.write() as db:
        contacts.add_contact(db, "Added Later")
        db.execute("UPDATE settings SET value = 'dark' WHERE key = 'theme'")
    store.reset()
    assert [r["name"] for r in store.dump("contacts")] == ["Seeded Person"]
    with store.read() as db:
        assert get_setting(db, "theme") == "light"
    store.close()


def test_failed_write_rolls_back() -> None:
    store = Store()
    with pytest.raises(StoreError), store.write() as db:
        tasks.add_task(db, "kept only if the block succeeds")
        raise StoreError("boom")
    assert store.dump("tasks") == []
    store.close()


def test_files_paths_and_name_clashes() -> None:
    store = Store()
    with store.write() as db:
        item = files.add_file(db, "Documents/Trip/plan.txt", "v1")
        assert files.path_of(db, item) == "Documents/Trip/plan.txt"
        assert files.add_file(db, "Documents/Trip/plan.txt", "v2") == item  # replaced
        with pytest.raises(StoreError, match="already an item"):
            files.store_file(db, files.folder_id(db, "Documents/Trip"), "plan.txt", b"x")
        folder = files.folder_id(db, "Documents")
        with pytest.raises(StoreError, match="into itself"):
            files.move(db, folder or 0, "Documents", files.folder_id(db, "Documents/Trip"))
    store.close()


@pytest.mark.parametrize(
    ("func", "value", "expected"),
    [
        (parse_date, " 2024-06-03 ", "2024-06-03"),
        (parse_time, "7:05", "07:05"),
        (parse_datetime, "2024-06-03 09:30", "2024-06-03T09:30"),
    ],
)
def test_parsers_normalise(func: object, value: str, expected: str) -> None:
    assert func(value) == expected  # type: ignore[operator]


@pytest.mark.parametrize(
    ("func", "value"),
    [
        (parse_date, "03/06/2024"),
        (parse_time, "25:00"),
        (parse_time, "noon"),
        (parse_datetime, "x"),
    ],
)
def test_parsers_reject_with_a_specific_message(func: object, value: str) -> None:
    with pytest.raises(StoreError, match=repr(value).strip("'")):
        func(value)  # type: ignore[operator]


def test_phone_numbers_compare_by_digits() -> None:
    assert digits("+44 20 7946-0001") == digits("4420 79460001") == "442079460001"
