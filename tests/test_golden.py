"""generated/ is exactly what the specs produce, and a rebuild is byte-identical."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest
from aventuriers.compiler.build import GENERATED, compile_edition, loader, output_files, shipped_editions
from aventuriers.compiler.cli import main
from aventuriers.compiler.frontend.lower import PUBLISHED_NOTE, schema
from aventuriers.compiler.write import differences


def build_all() -> dict[str, str]:
    editions = loader()
    return output_files(
        [compile_edition(editions.path_of(name), editions) for name in shipped_editions(editions)]
    )


def test_generated_matches_the_specs() -> None:
    assert differences(build_all(), GENERATED, None) == "", "run `aventuriers build` and commit generated/"


def test_rebuild_is_byte_identical() -> None:
    assert build_all() == build_all()


def test_generated_code_has_no_machine_specific_text() -> None:
    for path, text in build_all().items():
        assert "/work/" not in text and "/home/" not in text and "/tmp" not in text, path


def test_the_published_schema_is_the_one_the_validator_uses() -> None:
    """`generated/schema.json` holds every key of the language, the mechanisms' included (issue 37,
    §5): exactly the schema a spec is checked against, with a note on where it comes from."""
    published = json.loads((GENERATED / "schema.json").read_text(encoding="utf-8"))
    assert published.pop("$comment") == PUBLISHED_NOTE
    assert published == schema()
    for key in ("claim_effect", "tokens", "score_table", "public_routes", "shares"):
        assert key in published["properties"], key
    assert "pays" in published["properties"]["joker"]["properties"]


def test_a_stale_published_schema_fails_the_check(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["build", "usa-2025", "--out", str(out)]) == 0
    assert main(["build", "usa-2025", "--check", "--out", str(out)]) == 0
    stale = (
        (out / "schema.json")
        .read_text(encoding="utf-8")
        .replace('    "claim_effect": {', '    "claim_effects": {')
    )
    (out / "schema.json").write_text(stale, encoding="utf-8")
    capsys.readouterr()
    assert main(["build", "usa-2025", "--check", "--out", str(out)]) == 1
    output = capsys.readouterr()
    assert "--- out/schema.json (committed)\n+++ out/schema.json (from the specs)\n" in output.out
    assert '-    "claim_effects": {\n+    "claim_effect": {\n' in output.out
    assert "out diffère de ce que produisent les specs : lancez `aventuriers build`." in output.err


EDITIONS = sorted(path.parent.name for path in GENERATED.glob("*/engine.py"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_generated_engine_is_ruff_clean(edition: str) -> None:
    engine = GENERATED / edition / "engine.py"
    # E501: long French messages are string literals that no formatter splits.
    for command in (["format", "--check"], ["check", "--select", "E,F,W", "--ignore", "E501"]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--isolated", "--line-length", "110", str(engine)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_engines_only_carry_what_their_spec_uses() -> None:
    """No tunnel, ferry or station code where the spec does not ask for it."""
    checked = 0
    for edition in EDITIONS:
        module = importlib.import_module(f"aventuriers.generated.{edition}")
        source = (GENERATED / edition / "engine.py").read_text(encoding="utf-8").lower()
        uses = {
            "tunnel": hasattr(module, "TUNNEL_REVEAL"),
            "ferry": any(route.get("ferry") for route in module.ROUTES.values()),
            "station": hasattr(module, "STATIONS"),
        }
        for word, used in uses.items():
            assert used or word not in source, f"{edition} carries {word} code"
            checked += not used
    assert checked >= 15  # five USA engines, three mechanisms each


def test_every_mechanism_part_is_printed_at_a_hook_point() -> None:
    """A part named after no hook point would never be printed, in silence: each file of a
    mechanism's ``engine`` and ``native`` folders names one of the engine's hook points."""
    from aventuriers.compiler.mechanisms import HOOKS, REGISTRY
    from aventuriers.compiler.mechanisms.base import NATIVE_HOOKS

    found = 0
    for mechanism in REGISTRY:
        for folder, hooks, suffix in (("engine", HOOKS, ".py.j2"), ("native", NATIVE_HOOKS, ".pyx.j2")):
            for part in (
                sorted((mechanism.folder / folder).glob("*")) if (mechanism.folder / folder).is_dir() else []
            ):
                assert part.name.endswith(suffix) and part.name.removesuffix(suffix) in hooks, part
                found += 1
    assert found > 40


def test_native_engines_only_carry_what_their_spec_uses() -> None:
    """The native engine of an edition without tunnels or stations has none of their code."""
    for edition in EDITIONS:
        core = GENERATED / edition / "engine_core.pyx"
        if not core.exists():
            continue
        module = importlib.import_module(f"aventuriers.generated.{edition}")
        source = core.read_text(encoding="utf-8").lower()
        assert ("tunnel" in source) == hasattr(module, "TUNNEL_REVEAL"), edition
        assert ("station" in source) == hasattr(module, "STATIONS"), edition
