"""`tilegames serve`: prints its address, serves the page, refuses a bad port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

from tilegames.cli import main


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
        for _ in range(100):
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
