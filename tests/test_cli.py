"""The aventuriers command: build (all or nothing), --check, sheet, simulate, check."""

from __future__ import annotations

import shutil
from pathlib import Path

from aventuriers.compiler.build import GENERATED
from aventuriers.compiler.cli import main
from aventuriers.compiler.write import is_native_artefact

BROKEN = Path(__file__).resolve().parent / "specs" / "broken"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_build_into_a_folder_reproduces_generated(tmp_path, capsys) -> None:
    assert main(["build", "--out", str(tmp_path)]) == 0
    produced = snapshot(tmp_path)
    committed = {
        k: v
        for k, v in snapshot(GENERATED).items()
        if "__pycache__" not in k and not is_native_artefact(Path(k).name)
    }
    assert produced == committed


def test_a_broken_spec_leaves_the_output_untouched(tmp_path, capsys) -> None:
    assert main(["build", "usa-2025", "--out", str(tmp_path)]) == 0
    before = snapshot(tmp_path)
    status = main(["build", "usa-2025", str(BROKEN / "cities.aventuriers"), "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1
    assert "E301: ville inconnue « Atlantaa »" in err and "Traceback" not in err
    assert "rien n’a été écrit" in err
    assert snapshot(tmp_path) == before


def test_check_flag_reports_a_difference_and_fails(tmp_path, capsys) -> None:
    # Two editions are enough to show the flag (the golden tests build every one).
    two = ["usa-2025", "switzerland"]
    assert main(["build", *two, "--out", str(tmp_path)]) == 0
    assert main(["build", *two, "--check", "--out", str(tmp_path)]) == 0
    sheet = tmp_path / "usa_2025" / "fiche.md"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("45 wagons", "46 wagons"), encoding="utf-8")
    (tmp_path / "usa_2025" / "stale.py").write_text("", encoding="utf-8")
    capsys.readouterr()
    assert main(["build", *two, "--check", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "-- 46 wagons par joueur" in out and "+- 45 wagons par joueur" in out
    assert "usa_2025/stale.py: not written by a build (remove it by hand)" in out
    assert main(["build", *two, "--out", str(tmp_path)]) == 0
    assert (tmp_path / "usa_2025" / "stale.py").exists(), "a build deletes only what it wrote"
    (tmp_path / "usa_2025" / "stale.py").unlink()
    assert main(["build", *two, "--check", "--out", str(tmp_path)]) == 0


def test_sheet_prints_the_generated_fiche(capsys) -> None:
    assert main(["sheet", "usa-2025"]) == 0
    assert capsys.readouterr().out == (GENERATED / "usa_2025" / "fiche.md").read_text(encoding="utf-8")


def test_sheet_of_a_user_file_and_of_an_abstract_base(tmp_path, capsys) -> None:
    variant = tmp_path / "cinq-tickets.aventuriers"
    variant.write_text(
        'edition cinq-tickets\nextends usa-2025\ntitle "USA, cinq tickets"\n'
        "setup {\n  tickets deal: 5 keep_at_least: 3 rejected: shuffled_under\n}\n",
        encoding="utf-8",
    )
    assert main(["sheet", str(variant)]) == 0
    out = capsys.readouterr().out
    assert "donnes-en cinq à chaque joueur. Chacun en garde au moins trois" in out
    assert main(["sheet", "usa-base"]) == 1


def test_simulate_plays_and_reports(capsys) -> None:
    assert main(["simulate", "usa-classic", "--games", "5", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "5 parties de usa-classic à 3 joueurs" in out
    assert "parties par seconde" in out and "tours par partie" in out and "score moyen" in out
    assert main(["simulate", "usa-classic", "--games", "1", "--players", "7"]) == 2  # a misuse


def test_check_accepts_editions_and_the_abstract_base(capsys) -> None:
    assert main(["check", "editions/usa-base.aventuriers", "editions/usa-classic.aventuriers"]) == 0


def test_console_script_is_installed() -> None:
    assert shutil.which("aventuriers"), "pip install -e . installs the `aventuriers` command"


def test_missing_unreadable_and_unknown_inputs_get_located_errors(tmp_path, capsys) -> None:
    binary = tmp_path / "binary.aventuriers"
    binary.write_bytes(b"\xff\xfe")
    cases = {
        (
            "build",
            "usa-2O25",
        ): "usa-2O25: E312: fichier introuvable\n      = aide : vouliez-vous dire « usa-2025 » ?",
        ("sheet", "nowhere/x.aventuriers"): "nowhere/x.aventuriers: E312: fichier introuvable",
        ("check", str(tmp_path)): f"{tmp_path}: E312: c’est un dossier, pas un fichier de spec",
        ("check", str(binary)): f"{binary}: E312: ce n’est pas du texte UTF-8",
        ("simulate", "usa-2O25"): "usa-2O25: E312: fichier introuvable",
        ("diff", "usa-2024", "usa-2025"): "usa-2024: E312: fichier introuvable",
    }
    for argv, expected in cases.items():
        assert main(list(argv)) == 1, argv
        err = capsys.readouterr().err
        assert err.startswith(expected), err
        assert "Traceback" not in err


def test_a_worked_example_the_engine_refuses_is_a_located_error(tmp_path, capsys) -> None:
    spec = tmp_path / "tunnel-bad.aventuriers"
    spec.write_text(
        "edition tunnel-bad\nextends europe\ntunnel_example madrid-pamplona-black {\n"
        "  cards [red, red, red]\n  revealed [black, green, white]\n}\n",
        encoding="utf-8",
    )
    assert main(["sheet", str(spec)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"{spec}:3:1: E311: l’exemple de tunnel est refusé par le moteur : "
        "Cette route se paie en noir, complétée par des locomotives."
    )
