"""--db values: default, paths, sqlite:// and libpq URLs; one-line errors for bad ones."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tilegames.db import Target, TargetError, parse_target
from tilegames.store import default_path


def test_nothing_is_the_stores_default_file() -> None:
    target = parse_target(None)
    assert target.backend == "sqlite"
    assert target.path == default_path().absolute()


def test_a_path_is_sqlite(tmp_path: Path) -> None:
    target = parse_target(str(tmp_path / "new" / "deeper" / "arcade.sqlite3"))
    assert target.backend == "sqlite" and target.conninfo is None
    assert target.sqlalchemy_url.database == str(tmp_path / "new" / "deeper" / "arcade.sqlite3")
    assert parse_target(f"sqlite:///{tmp_path}/a.db").path == tmp_path / "a.db"


def test_tcp_and_socket_urls() -> None:
    tcp = parse_target("postgresql://ann:s3cret@db.example:6543/arcade")
    assert tcp.backend == "postgresql" and tcp.path is None
    url = tcp.sqlalchemy_url
    assert (url.drivername, url.username, url.password, url.host, url.port, url.database) == (
        "postgresql+psycopg", "ann", "s3cret", "db.example", 6543, "arcade",
    )  # fmt: skip
    assert tcp.conninfo == "postgresql://ann:s3cret@db.example:6543/arcade"
    assert "s3cret" not in str(tcp)
    sock = parse_target("postgres://ann@/arcade?host=/run/postgresql&port=5433")
    assert sock.sqlalchemy_url.host is None
    assert dict(sock.sqlalchemy_url.query) == {"host": "/run/postgresql", "port": "5433"}
    assert psycopg.conninfo.conninfo_to_dict(sock.conninfo)["host"] == "/run/postgresql"


@given(
    user=st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s),
    password=st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s),
    database=st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s and "/" not in s),
    port=st.integers(1, 65535),
)
def test_quoted_parts_agree_with_libpq(user: str, password: str, database: str, port: int) -> None:
    """What SQLAlchemy gets and what libpq reads from the same URL are the same user, password, database."""
    text = f"postgresql://{quote(user, safe='')}:{quote(password, safe='')}@h:{port}/{quote(database, safe='')}"
    target = parse_target(text)
    libpq = psycopg.conninfo.conninfo_to_dict(target.conninfo)
    url = target.sqlalchemy_url
    assert (url.username, url.password, url.database, url.port) == (user, password, database, port)
    assert (libpq["user"], libpq["password"], libpq["dbname"], int(libpq["port"])) == (
        user, password, database, port,
    )  # fmt: skip
    assert ":***@" in str(target)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("mysql://u@h/db", "unknown database scheme 'mysql'"),
        ("postgresql://u:pw@h:5432", "names no database"),
        ("postgresql://u:pw@h:5432/", "names no database"),
        ("postgresql://u@h:99999/db", "port"),
        ("postgresql://u@/db?port=abc", "not a number"),
        ("", "--db is empty"),
        ("sqlite://relative", "sqlite:///path"),
    ],
)
def test_bad_values_are_one_line(text: str, words: str) -> None:
    with pytest.raises(TargetError, match=words) as caught:
        parse_target(text)
    assert "\n" not in str(caught.value) and "pw" not in str(caught.value)


def test_parent_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(TargetError, match="is a file"):
        parse_target(str(tmp_path / "plain" / "arcade.sqlite3"))
    with pytest.raises(TargetError, match="is a directory"):
        parse_target(str(tmp_path))


def test_read_only_directory(tmp_path: Path) -> None:
    """A directory we may not write to; as root (who may write anywhere) a read-only tmpfs mount."""
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() != 0:
        locked.chmod(0o555)
    elif subprocess.run(["mount", "-t", "tmpfs", "-o", "ro", "tmpfs", str(locked)]).returncode:
        pytest.skip("running as root and cannot mount a read-only tmpfs: no read-only directory")
    try:
        with pytest.raises(TargetError, match="read-only"):
            parse_target(str(locked / "arcade.sqlite3"))
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(locked)], check=True)
        locked.chmod(0o755)


def test_target_is_frozen() -> None:
    target = parse_target("postgresql://u@h/db")
    with pytest.raises(AttributeError):
        target.backend = "sqlite"  # type: ignore[misc]
    assert isinstance(target, Target)
