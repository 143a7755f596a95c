"""A spec is data: hostile strings reach the engine as plain strings, never as code."""

from __future__ import annotations

import random
import re
from pathlib import Path

from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

BROKEN = Path(__file__).resolve().parent / "specs" / "broken"

HOSTILE = {
    "Atlanta": 'Evil"; open("PWNED", "w"); x = "',
    "Boston": "Back\\slash\\",
    "Chicago": '"""; import os; os.system("touch PWNED"); """',
    "Denver": "{{ 7 * 7 }} {% raw %} '''\\n",
}


def spec_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def test_hostile_city_names_stay_strings(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = (BROKEN / "tiny.aventuriers").read_text(encoding="utf-8")
    source = source.replace("edition tiny", "edition hostile").replace(
        '"Petit jeu d\'essai"', spec_literal('T"""itle')
    )
    for plain, hostile in HOSTILE.items():
        source = source.replace(f'"{plain}"', spec_literal(hostile))
    spec = tmp_path / "hostile.aventuriers"
    spec.write_text(source, encoding="utf-8")
    compiled = compile_edition(spec, loader())
    engine = load_engine(compiled.engine_source, "hostile")
    cities = {city for route in engine.ROUTES.values() for city in (route["a"], route["b"])}
    assert cities == set(HOSTILE.values())
    assert engine.TITLE.startswith('T"""itle')
    game = engine.new_game(2, 3)
    chooser = random.Random(3)
    while not game.is_over():
        game.apply(chooser.choice(game.legal_actions()))
    assert game.scores()
    assert not (tmp_path / "PWNED").exists()
    assert "{{ 7 * 7 }}" in compiled.engine_source or "{{ 7 * 7 }}" in repr(engine.ROUTES)


MARKUP = {
    "game": "<img src=x onerror=alert(1)>",
    "title": "x\n# Injected heading",
    "map": "[lien](javascript:alert(1)) | *gras* `code` &amp; ~~barré~~",
}


def test_hostile_strings_stay_text_in_the_markdown_outputs(tmp_path, capsys) -> None:
    """Every spec string reaches the sheet and the differences page as text, never as markup."""
    from aventuriers.compiler.cli import main
    from aventuriers.compiler.emit.escape import markdown_text

    lines = ["edition balises", "extends usa-2025"]
    lines += [f"{key} {spec_literal(value)}" for key, value in MARKUP.items()]
    lines += ['decision d1 "1. premier - second <script>alert(1)</script>"']
    spec = tmp_path / "balises.aventuriers"
    spec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (["sheet", str(spec)], ["diff", "usa-2025", str(spec)]):
        assert main(command) == 0
        page = capsys.readouterr().out
        for line in page.splitlines():
            unescaped = re.sub(r"\\.", "", line)  # what Markdown would read as markup
            assert not line.startswith("# Injected"), line
            for marker in ("<", "*gras*", "`code`", "](", "~~", "&amp"):
                assert marker not in unescaped, line
        assert "x \\# Injected heading" in page
    assert markdown_text("1. a") == "1\\. a" and markdown_text("- a") == "\\- a"
    assert markdown_text("Sault St. Marie") == "Sault St. Marie"  # plain names stay as they are
