"""`tilegames serve`: prints its address, serves the page, refuses a bad port."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tilegames.cli import main
from tilegames.web.protocol import connection_cap, uvicorn_options


def test_bad_port_is_exit_2(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert "port" in capsys.readouterr().err


def test_serve_prints_the_address_and_serves_the_page(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path / "serve.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "tilegames", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and str(db) in line
        for _ in range(1200):  # a cold start on a loaded machine: up to ~2 min
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as page:
                    assert "tilegames" in page.read().decode()
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server never answered")
        assert db.exists()
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("file/arcade.sqlite3", "is a file, not a folder"),  # a parent is a regular file
        ("folder", "unable to open"),  # the path is a folder
        ("/proc/self/arcade.sqlite3", "unable to open"),  # a file system that takes no new files
        ("postgresql://user@127.0.0.1:1/arcade?connect_timeout=2", "127.0.0.1"),  # nobody listens
        ("mysql://user@db.example/arcade", "unknown database scheme"),
    ],
)
def test_an_unusable_db_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, where, said):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file").write_text("not a folder")
    (tmp_path / "folder").mkdir()
    assert main(["serve", "--db", where, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "postgresql:").exists()


def test_proxy_headers_are_trusted_only_from_the_given_addresses():
    default = uvicorn_options(trusted_proxies=[], max_connections=None, read_seconds=10.0)
    assert default["proxy_headers"] is False
    behind = uvicorn_options(trusted_proxies=["10.0.0.1"], max_connections=None, read_seconds=10.0)
    assert behind["proxy_headers"] is True and behind["forwarded_allow_ips"] == ["10.0.0.1"]


def test_the_connection_cap_stays_below_the_descriptor_limit():
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert connection_cap(None) <= min(1024, soft)
    assert connection_cap(10**9) < resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert connection_cap(5) == 5
