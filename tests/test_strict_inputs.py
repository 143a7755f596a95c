"""Every bad input gets an answer, within limits (issue 7, §2 to §4).

Each case is a reproducer that once ended in a traceback, a hang or a wrong
answer; the whole rendered line is compared where it is short.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.build import ROOT
from aventuriers.compiler.cli import main
from aventuriers.compiler.frontend import parse as parse_module
from aventuriers.compiler.frontend.parse import parse
from aventuriers.compiler.frontend.positions import SourceFile


def check(tmp_path: Path, text: str, name: str = "v", capsys=None) -> tuple[int, str]:
    spec = tmp_path / f"{name}.aventuriers"
    spec.write_text(text, encoding="utf-8")
    status = main(["check", str(spec)])
    err = capsys.readouterr().err if capsys else ""
    assert "Traceback" not in err
    return status, err.replace(str(tmp_path) + "/", "")


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        (
            "without tunnel_example X",
            "v.aventuriers:3:24: V204: « X » n’est pas un identifiant valide",
        ),
        ("without board x", "v.aventuriers:3:9: V204: « board » n’est pas permis pour « kind »"),
        (
            "without stations x",
            "v.aventuriers:3:1: V206: « without stations » retire toute la règle : pas d’identifiant",
        ),
        ("without bonus", "v.aventuriers:3:1: V202: dites quel bonus retirer"),
        ("without tiebreak fewest_stations", "v.aventuriers:3:9: V204: « tiebreak » n’est pas permis"),
        ("without bonus nothing_here", "v.aventuriers:3:15: E308: aucun bonus « nothing_here » à retirer"),
        ("trains " + "9" * 4301, "v.aventuriers:3:8: V205: nombre trop grand : au plus 9 chiffres"),
        (
            "title " + "[" * 500 + "]" * 500,
            "v.aventuriers:3:17: E316: imbrication trop profonde (au plus 10 niveaux)",
        ),
        ("players 2..1000000000000", "v.aventuriers:3:9: V205: nombre trop grand : au plus 9 chiffres"),
        ("players 2..1000", "v.aventuriers:3:9: V205: « max » vaut 1000 ; il faut au plus 8"),
        (
            "cards {\n  red 100000000\n}",
            "v.aventuriers:4:7: V205: « red » vaut 100000000 ; il faut au plus 1000",
        ),
        ("setup {\n" * 500 + "}\n" * 500, "v.aventuriers:4:1: V201: « setup » n’est pas une clé connue ici"),
    ],
)
def test_bad_statements_in_a_variant_are_located(tmp_path, capsys, statement, expected) -> None:
    status, err = check(tmp_path, f"edition v\nextends europe\n{statement}\n", capsys=capsys)
    assert status == 1
    assert expected in err, err


def test_a_board_too_large_is_refused(tmp_path, capsys) -> None:
    routes = "".join(f'  route "A" "B" 1 gray double: {n}\n' for n in range(2001))
    status, err = check(
        tmp_path, f'edition v\nextends europe\nboard {{\n  city "A"\n  city "B"\n{routes}}}\n', capsys=capsys
    )
    assert status == 1 and "E316: 2001 « route » ; il en faut au plus 2000" in err, err[:500]


def test_a_thousand_level_extends_chain_is_refused(tmp_path, capsys) -> None:
    (tmp_path / "e0.aventuriers").write_text("edition e0\nextends europe\n", encoding="utf-8")
    for level in range(1, 1000):
        (tmp_path / f"e{level}.aventuriers").write_text(
            f"edition e{level}\nextends e{level - 1}\n", encoding="utf-8"
        )
    assert main(["check", str(tmp_path / "e999.aventuriers")]) == 1
    err = capsys.readouterr().err
    assert "E316: chaîne d’héritage trop longue (au plus 16 niveaux)" in err and "Traceback" not in err


def test_extends_takes_a_name_and_never_reads_a_path(tmp_path, capsys) -> None:
    outside = tmp_path / "b"
    outside.mkdir()
    (outside / "bad.aventuriers").write_text("SECRET LINE {\n", encoding="utf-8")
    (tmp_path / "a").mkdir()
    status, err = check(tmp_path / "a", 'edition v\nextends "../b/bad"\n', capsys=capsys)
    assert status == 1
    assert "V204: « ../b/bad » n’est pas un identifiant valide" in err and "SECRET" not in err


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("json", "« json » masquerait un module Python du même nom"),
        ("os", "« os » masquerait un module Python du même nom"),
        ("__future__", "« __future__ » masquerait un module Python du même nom"),
        ("class", "« class » est un mot réservé de Python"),
        ("1910", "un nom de module Python ne commence pas par un chiffre"),
    ],
)
def test_an_edition_name_must_be_a_clean_module_name(tmp_path, capsys, name, reason) -> None:
    status, err = check(tmp_path, f"edition {name}\nextends europe\n", name=name, capsys=capsys)
    assert status == 1
    assert f"{name}.aventuriers:1:9: E317: « {name} » ne peut pas nommer une édition : {reason}" in err, err


def test_an_edition_name_with_a_trailing_newline_is_not_an_identifier(tmp_path, capsys) -> None:
    status, err = check(tmp_path, 'edition "v\\n"\nextends europe\n', capsys=capsys)
    assert status == 1
    assert "v.aventuriers:1:9: V204: « v\\n » n’est pas un identifiant valide" in err, err


def test_checking_a_base_checks_what_it_declares(tmp_path, capsys) -> None:
    for base, city in (
        ("usa-base", '"Boston"          "Miami"'),
        ("usa-1910-box", '"New York"        "Miami"'),
    ):
        text = (ROOT / "editions" / f"{base}.aventuriers").read_text(encoding="utf-8")
        assert city in text
        status, err = check(
            tmp_path, text.replace(city, city.replace("Miami", "Miamy"), 1), name=base, capsys=capsys
        )
        assert status == 1
        assert "E301: ville inconnue « Miamy »" in err and "vouliez-vous dire « Miami » ?" in err


def test_files_too_large_or_endless_are_refused_without_reading_them_whole(tmp_path, capsys) -> None:
    assert main(["check", "/dev/zero"]) == 1
    assert "/dev/zero: E316: fichier trop gros" in capsys.readouterr().err
    huge = tmp_path / "huge.aventuriers"
    huge.write_text('title "' + "x" * 5_000_000 + '"\n', encoding="utf-8")
    assert main(["check", str(huge)]) == 1
    err = capsys.readouterr().err
    assert "E316: fichier trop gros" in err and len(err) < 500


def test_a_long_line_is_echoed_in_part(tmp_path, capsys) -> None:
    status, err = check(
        tmp_path, 'edition v\nextends europe\ntitle "' + "x" * 50_000 + '" 2\n', capsys=capsys
    )
    assert status == 1
    assert max(len(line) for line in err.splitlines()) < 300


def test_lines_are_counted_as_the_parser_counts_them(tmp_path, capsys) -> None:
    text = "\ufeffedition v\nextends europe\n# un saut\x0cde page et\u2028un séparateur\ntitle 3 4\n"
    status, err = check(tmp_path, text, capsys=capsys)
    assert status == 1
    assert err.startswith(
        "v.aventuriers:4:1: V206: « title » attend une seule valeur\n    4 | title 3 4\n"
    ), err


def test_a_utf8_byte_order_mark_is_accepted(tmp_path, capsys) -> None:
    status, _ = check(tmp_path, "\ufeffedition v\nextends europe\n", capsys=capsys)
    assert status == 0


def test_syntax_recovery_does_work_proportional_to_the_file(monkeypatch) -> None:
    """12,000 broken lines once took 72 s (a whole re-parse per error): count the characters parsed."""
    text = "edition v\n" + "route ] x\n" * 12_000
    parsed = []
    real = parse_module.parser()

    class Counting:
        def parse(self, chunk: str):
            parsed.append(len(chunk))
            return real.parse(chunk)

    monkeypatch.setattr(parse_module, "parser", lambda: Counting())
    with pytest.raises(Exception) as failure:
        parse(SourceFile(name="v.aventuriers", text=text))
    assert len(failure.value.diagnostics) == 12_000
    assert sum(parsed) <= 4 * len(text)


def test_an_unknown_statement_is_one_error_at_its_name(tmp_path, capsys) -> None:
    """Issue 20, §3: it was located at its value, and each repeat added a V207."""
    status, err = check(tmp_path, "edition v\nextends europe\nfoo 1\nfoo 2\nfoo 3\n", capsys=capsys)
    assert status == 1
    assert (
        "v.aventuriers:3:1: V201: « foo » n’est pas une clé connue ici\n    3 | foo 1\n      | ^^^\n" in err
    )
    assert "V207" not in err and "1 erreur(s)" in err
    status, err = check(tmp_path, "edition v\nextends europe\nturn {\n  claim_route 3\n}\n", capsys=capsys)
    assert (
        status == 1 and "v.aventuriers:4:15: V203: « claim_route » attend un drapeau (sans argument)" in err
    )
    status, err = check(tmp_path, "edition v\nextends europe\ntunnel reveal: 2\n", capsys=capsys)
    assert "v.aventuriers:3:1: V201: « tunnel » n’est pas une clé connue ici" in err
    assert "vouliez-vous dire « tunnels » ?" in err
