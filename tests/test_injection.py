"""A spec is data: hostile strings reach the engine as plain strings, never as code."""

from __future__ import annotations

import random
from pathlib import Path

from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.example import load_engine

BROKEN = Path(__file__).resolve().parent / "specs" / "broken"

HOSTILE = {
    "Atlanta": 'Evil"; open("PWNED", "w"); x = "',
    "Boston": "Back\\slash\\",
    "Chicago": '"""; import os; os.system("touch PWNED"); """',
    "Denver": "{{ 7 * 7 }} {% raw %} '''\\n",
}


def spec_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
