"""A build never destroys what it did not write (issue 7, §1).

Each test reproduces a finding: a build that deleted a user's files, wrote
through a symbolic link, hung on a FIFO, wrote into the installed tree, or
answered a bad --out with a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from aventuriers.compiler.cli import main
from aventuriers.compiler.write import MANIFEST

VARIANT = 'edition {name}\nextends usa-2025\ntitle "USA, une variante"\n'


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def variant(folder: Path, name: str) -> Path:
    path = folder / f"{name}.aventuriers"
    path.write_text(VARIANT.format(name=name), encoding="utf-8")
    return path


def test_a_folder_of_the_users_files_is_refused_and_left_as_it_was(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "README.md").write_text("k\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mine.py").write_text("def test(): pass\n", encoding="utf-8")
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--out", "."]) == 1
    assert main(["build", str(variant(tmp_path / "tests", "tests")), "--out", "."]) == 1
    err = capsys.readouterr().err
    assert ".: E313: ce dossier n’est pas vide et n’a pas été produit par aventuriers build" in err
    assert "Traceback" not in err
    before["tests/tests.aventuriers"] = (tmp_path / "tests" / "tests.aventuriers").read_bytes()
    assert snapshot(tmp_path) == before


def test_files_added_to_a_build_output_are_never_replaced_or_deleted(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    mine = {"notes.txt": b"mes notes\n", "usa_2025/mine.py": b"x = 1\n"}
    for relative, data in mine.items():
        (out / relative).write_bytes(data)
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    assert main(["build", "usa-classic", "--out", str(out)]) == 0
    for relative, data in mine.items():
        assert (out / relative).read_bytes() == data
    capsys.readouterr()
    assert main(["build", "usa-2025", "usa-classic", "--check", "--out", str(out)]) == 1
    assert "out/usa_2025/mine.py: not written by a build (remove it by hand)" in capsys.readouterr().out


def test_a_target_the_user_owns_is_refused(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    (out / "usa_classic").mkdir()
    (out / "usa_classic" / "fiche.md").write_text("ma fiche\n", encoding="utf-8")
    assert main(["build", "usa-classic", "--out", str(out)]) == 1
    assert "E313: ce fichier existe et n’a pas été écrit par aventuriers" in capsys.readouterr().err
    assert (out / "usa_classic" / "fiche.md").read_text(encoding="utf-8") == "ma fiche\n"
    assert not (out / "usa_classic" / "engine.py").exists()


def test_a_full_build_removes_only_the_files_earlier_builds_wrote(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    extra = variant(tmp_path, "ma-variante")
    assert main(["build", "usa-2025", str(extra), "--out", str(out)]) == 0
    (out / "ma_variante" / "mine.txt").write_text("à moi\n", encoding="utf-8")
    assert main(["build", "usa-2025", "--out", str(out)]) == 0  # partial: the variant stays
    assert (out / "ma_variante" / "engine.py").exists()
    assert main(["build", "--out", str(out)]) == 0  # full: the variant's files go, not mine
    assert not (out / "ma_variante" / "engine.py").exists()
    assert (out / "ma_variante" / "mine.txt").read_text(encoding="utf-8") == "à moi\n"
    listed = (out / MANIFEST).read_text(encoding="utf-8")
    assert "ma_variante" not in listed and "usa_mega/engine.py\n" in listed


def test_symbolic_links_are_never_followed(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    outside = tmp_path / "outside.txt"
    outside.write_text("intact\n", encoding="utf-8")
    sheet = out / "usa_2025" / "fiche.md"
    sheet.unlink()
    sheet.symlink_to(outside)
    assert main(["build", "usa-2025", "--out", str(out)]) == 1
    assert "E313: la sortie serait écrite dans un lien symbolique" in capsys.readouterr().err
    assert outside.read_text(encoding="utf-8") == "intact\n"
    linked = tmp_path / "linked"
    linked.symlink_to(out, target_is_directory=True)
    assert main(["build", "usa-2025", "--out", str(linked)]) == 1
    assert "le dossier de sortie est un lien symbolique" in capsys.readouterr().err


def test_a_fifo_is_refused_without_waiting(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    (out / "usa_2025" / "fiche.md").unlink()
    os.mkfifo(out / "usa_2025" / "fiche.md")
    assert main(["build", "usa-2025", "--out", str(out)]) == 1
    assert main(["build", "usa-2025", "--check", "--out", str(out)]) == 1
    assert "un fichier spécial (FIFO ou périphérique)" in capsys.readouterr().err


def test_without_out_a_build_writes_to_generated_of_the_working_folder(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["build", str(variant(tmp_path, "ici"))]) == 0
    assert (tmp_path / "generated" / "ici" / "engine.py").exists()
    assert "1 édition(s) construite(s) dans generated" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("out", "expected"),
    [
        ("afile", "afile: E313: c’est un fichier, pas un dossier : rien n’a été écrit"),
        ("/proc/nope", "/proc/nope: E313: écriture impossible (chemin introuvable)"),
    ],
)
def test_an_output_that_is_not_a_folder_is_a_located_error(
    tmp_path, monkeypatch, capsys, out, expected
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x\n", encoding="utf-8")
    assert main(["build", "usa-2025", "--out", out]) == 1
    err = capsys.readouterr().err
    assert expected in err, err
    assert "Traceback" not in err and (tmp_path / "afile").read_text(encoding="utf-8") == "x\n"


def test_building_an_abstract_base_is_refused(tmp_path, capsys) -> None:
    assert main(["build", "usa-base", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "editions/usa-base.aventuriers:" in err
    assert (
        "E314: « usa-base » est une base abstraite : elle ne se joue pas et ne se construit pas seule" in err
    )
    assert not (tmp_path / "out").exists()


def test_two_editions_with_one_module_name_are_refused(tmp_path, capsys) -> None:
    dashed, underscored = variant(tmp_path, "a-b"), variant(tmp_path, "a_b")
    assert main(["build", str(dashed), str(underscored), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert (
        "a-b.aventuriers:1:9: E315: les éditions « a-b » et « a_b » auraient le même module Python « a_b »"
        in err
    )
    assert not (tmp_path / "out").exists()
