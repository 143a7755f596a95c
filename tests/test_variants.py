"""The variant workflow: the README tutorial verbatim, diff pages, annexes."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from aventuriers.compiler.build import GENERATED
from aventuriers.compiler.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = Path(__file__).resolve().parent / "expected"


def readme_block(language: str, after: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(after) :]
    return re.search(rf"```{language}\n(.*?)```", section, flags=re.S).group(1)


def test_the_readme_tutorial_works_verbatim(tmp_path: Path) -> None:
    spec = readme_block("aventuriers", "## Tutorial")
    assert len(spec.strip().splitlines()) <= 15, "the tutorial variant must stay short"
    (tmp_path / "cinq-tickets.aventuriers").write_text(spec, encoding="utf-8")
    commands = readme_block("sh", "## Tutorial").strip().splitlines()
    outputs = []
    # As a user runs them: with a user cache (one of this test's), so that an unchanged variant
    # is compiled once.
    env = {key: value for key, value in os.environ.items() if key != "AVENTURIERS_NO_CACHE"}
    env["AVENTURIERS_CACHE"] = str(tmp_path / "cache")
    for command in commands:
        result = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, env=env
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
        assert "Traceback" not in result.stderr
        outputs.append(result.stdout)
    sheet = (tmp_path / "fiche.md").read_text(encoding="utf-8")
    assert "donnes-en cinq à chaque joueur. Chacun en garde au moins trois" in sheet
    assert "la carte bonus «\u00a0Globetrotter\u00a0»" in sheet
    assert sheet == (tmp_path / "mes-regles" / "cinq_tickets" / "fiche.md").read_text(encoding="utf-8")
    diff = outputs[3]
    assert "Tickets distribués\u00a0: cinq (au lieu de quatre)." in diff
    assert "Tickets gardés\u00a0: au moins trois (au lieu d’au moins deux)." in diff
    assert "La carte «\u00a0Globetrotter\u00a0» s’ajoute" in diff
    assert "parties par seconde" in outputs[4]
    assert outputs[5].strip() == "5"


def test_diff_classic_to_2025_is_exactly_the_rulebooks_setup_differences(capsys) -> None:
    assert main(["diff", "usa-classic", "usa-2025"]) == 0
    out = capsys.readouterr().out
    assert out == (EXPECTED / "diff-usa-classic-usa-2025.md").read_text(encoding="utf-8")
    bullets = [line for line in out.splitlines() if line.startswith("- ")]
    assert bullets == [
        "- Tickets Destination de la règle\u00a0: 33 (au lieu de 30).",
        "- Tickets distribués\u00a0: quatre (au lieu de trois).",
        "- Tickets rejetés\u00a0: mélangés ensemble, puis sous la pioche "
        "(au lieu de sous la pioche, dans l’ordre choisi par le joueur).",
    ]


def test_diff_of_an_edition_with_itself_is_empty(capsys) -> None:
    assert main(["diff", "usa-mega", "usa-mega"]) == 0
    assert "Aucune différence de règles." in capsys.readouterr().out


def test_diff_lists_decks_with_counts_and_bonuses(capsys) -> None:
    assert main(["diff", "usa-classic", "usa-1910"]) == 0
    out = capsys.readouterr().out
    assert (
        "35 tickets, tous nouveaux\u202f; les 30 tickets de l’édition «\u00a0USA, règle classique\u00a0» n’y "
        "sont plus" in out
    )
    assert "La carte «\u00a0Chemin le plus long\u00a0» n’est plus utilisée." in out
    assert (
        "La carte «\u00a0Globetrotter\u00a0» s’ajoute\u00a0: 15 points au joueur qui a réussi le plus de tickets"
        in out
    )
    assert "Mise en place" not in out


def test_diff_of_an_abstract_base_or_a_broken_spec_fails(capsys) -> None:
    assert main(["diff", "usa-base", "usa-2025"]) == 1
    assert main(["diff", "usa-2025", "tests/specs/broken/cities.aventuriers"]) == 1
    assert "E301" in capsys.readouterr().err


def test_variants_of_a_playable_edition_carry_the_differences_as_an_annex() -> None:
    for name in ("usa_1910", "usa_mega", "usa_big_cities"):
        sheet = (GENERATED / name / "fiche.md").read_text(encoding="utf-8")
        assert "## Annexe\u00a0: les différences avec l’édition «\u00a0USA, règle classique\u00a0»" in sheet
    for name in ("usa_2025", "usa_classic"):
        assert "Annexe" not in (GENERATED / name / "fiche.md").read_text(encoding="utf-8")


def test_diff_of_europe_lists_its_mechanisms(capsys) -> None:
    assert main(["diff", "usa-classic", "europe"]) == 0
    out = capsys.readouterr().out
    for line in (
        "- Gares par joueur\u00a0: 3 (nouveau).",
        "- Ferries\u00a0: 13 (nouveau).",
        "- Tunnels\u00a0: 18, trois cartes retournées (nouveau).",
        "- Tickets distribués\u00a0: quatre, un long et trois ordinaires (au lieu de trois).",
        "- Route de 8 cases\u00a0: 21 points (nouveau).",
    ):
        assert line in out


def test_the_readme_api_example_runs() -> None:
    code = readme_block("python", "## The engine API")
    namespace: dict = {}
    exec(compile(code.replace("print(", "result = ("), "README", "exec"), namespace)
    scores, winners = namespace["result"]
    assert len(scores) == 4 and winners
