"""`aventuriers replay` reads a record as data (issue 19, §4): whatever the file, a French
refusal and exit 1, never a traceback, a hang, or another file read."""

from __future__ import annotations

import json
import os
import threading

import pytest

pytest.importorskip("starlette")

from aventuriers.compiler.cli import main  # noqa: E402
from aventuriers.play.serve_command import served_edition  # noqa: E402
from aventuriers.play.session import Session  # noqa: E402


@pytest.fixture(scope="module")
def record():
    served = served_edition("usa-2025", ["greedy"], None)
    session = Session(
        engine=served.engine,
        edition="usa-2025",
        spec_hash=served.spec_hash,
        seed=5,
        seats=["human", "greedy"],
    )
    session.play_human(session.game.legal_actions()[0])
    return session.record()


def replayed(tmp_path, capsys, content: bytes | str, name: str = "partie.json") -> tuple[int, str]:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    status = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err


@pytest.mark.parametrize("seats", [[], ["human"], ["greedy"] * 100, [1, 2], "two"])
def test_seats_the_edition_cannot_play_are_refused(tmp_path, capsys, record, seats) -> None:
    status, err = replayed(tmp_path, capsys, json.dumps({**record, "seats": seats}))
    assert status == 1 and ("sièges" in err or "« seats »" in err), err


def test_a_record_nested_past_the_parser_is_refused(tmp_path, capsys, record) -> None:
    deep = json.dumps(record)[:-1] + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}"
    status, err = replayed(tmp_path, capsys, deep)
    assert status == 1 and "imbriqué trop profondément" in err
    seat = json.dumps({**record, "actions": [{"seat": [[[[0]]]], "action": {"type": "pass"}}]})
    status, err = replayed(tmp_path, capsys, seat)
    assert status == 1 and "action 1" in err


def test_a_byte_order_mark_is_read(tmp_path, capsys, record) -> None:
    status, err = replayed(tmp_path, capsys, b"\xef\xbb\xbf" + json.dumps(record).encode("utf-8"))
    assert status == 0, err


def test_devices_fifos_and_folders_are_never_read(tmp_path, capsys) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    assert main(["replay", str(link)]) == 1
    assert "pas un fichier ordinaire" in capsys.readouterr().err
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    finished = []
    worker = threading.Thread(target=lambda: finished.append(main(["replay", str(fifo)])), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert finished == [1], "replay waited on a FIFO"
    assert "pas un fichier ordinaire" in capsys.readouterr().err
    assert main(["replay", str(tmp_path)]) == 1
    assert main(["replay", str(tmp_path / "absent.json")]) == 1
    assert "chemin introuvable" in capsys.readouterr().err


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch) -> None:
    from aventuriers.play import session

    monkeypatch.setattr(session, "MAX_RECORD_BYTES", 1_000)
    status, err = replayed(tmp_path, capsys, "[" + " " * 2_000 + "]")
    assert status == 1 and "trop grand" in err


@pytest.mark.parametrize("edition", ["/etc/passwd", "../../etc/passwd", "passwd", "C:\\\\x\\\\y.txt", ""])
def test_a_record_never_names_a_file_to_read(tmp_path, capsys, record, edition) -> None:
    status, err = replayed(tmp_path, capsys, json.dumps({**record, "edition": edition}))
    assert status == 1
    assert "root:" not in err and "S1" not in err  # nothing of /etc/passwd compiled or echoed


def test_a_spec_beside_the_record_is_used(tmp_path, capsys, record) -> None:
    spec = tmp_path / "variante.aventuriers"
    spec.write_text("edition variante\nextends usa-2025\n", encoding="utf-8")
    status, err = replayed(
        tmp_path, capsys, json.dumps({**record, "edition": "/ailleurs/variante.aventuriers"})
    )
    assert status == 1 and "pas de l’édition « variante »" in err  # found beside the record, then told apart
