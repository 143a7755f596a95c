"""generated/ is exactly what the specs produce, and a rebuild is byte-identical."""

from __future__ import annotations

import functools
import importlib
import json
import re
import subprocess
import sys
from collections import Counter

import pytest
from aventuriers.compiler.build import GENERATED, compile_edition, loader, output_files, shipped_editions
from aventuriers.compiler.cli import main
from aventuriers.compiler.frontend.lower import PUBLISHED_NOTE, schema
from aventuriers.compiler.ir import Edition, TicketsRejected
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


@functools.cache
def _shipped_irs() -> dict[str, Edition]:
    """Each shipped edition's IR by its generated module's name."""
    editions = loader()
    return {
        name.replace("-", "_"): compile_edition(editions.path_of(name), editions).edition
        for name in shipped_editions(editions)
    }


def _defines(source: str, name: str) -> bool:
    """Whether an engine's source defines or names ``name`` as a whole word."""
    return re.search(rf"\b{re.escape(name)}\b", source) is not None


def test_engines_only_carry_the_exports_of_the_mechanisms_their_spec_uses() -> None:
    """A mechanism's public names are in an engine only where its spec uses the mechanism,
    and then only those it exports for that edition (a ticket mix without its deck's table…)."""
    from aventuriers.compiler.mechanisms import REGISTRY

    absent = 0
    for module_name, edition in _shipped_irs().items():
        module = importlib.import_module(f"aventuriers.generated.{module_name}")
        source = (GENERATED / module_name / "engine.py").read_text(encoding="utf-8")
        for mechanism in REGISTRY:
            wanted = set(mechanism.exports_for(edition)) if mechanism.used(edition) else set()
            for name in mechanism.exports:
                there = hasattr(module, name) or _defines(source, name)
                assert there == (name in wanted), f"{module_name}: {mechanism.statement} {name}"
                absent += name not in wanted
    assert absent > 100


def test_engines_only_carry_the_ticket_returns_their_spec_reaches() -> None:
    """Where a ticket given back goes is fixed by the spec: no branch for a policy it cannot
    reach, no set-up shuffle where nothing waits for it, no sorting of long tickets nobody has."""
    seen: Counter[tuple[bool, bool, bool]] = Counter()
    for module_name, edition in _shipped_irs().items():
        source = (GENERATED / module_name / "engine.py").read_text(encoding="utf-8")
        setup = edition.setup.tickets_rejected
        draw = edition.turn.draw_tickets.rejected if edition.turn.draw_tickets else setup
        long = edition.setup.long_tickets_rejected if edition.setup.long_tickets_dealt else None
        out = TicketsRejected.OUT_OF_GAME
        ordered = TicketsRejected.UNDER_CHOSEN_ORDER in (setup, draw, long)
        shuffled = TicketsRejected.SHUFFLED_UNDER in (setup, draw, long) or long not in (None, out)
        sorts_long = long is not None and (long is not out or setup is not out)
        found = (
            "order = self._ticket_list(order, ordered)" in source,
            "if self._setup_rejected:" in source,
            "given_back_long" in source,
        )
        assert found == (ordered, shuffled, sorts_long), module_name
        assert ('policy = "' in source) is False, module_name  # no run-time choice of policy
        core = GENERATED / module_name / "engine_core.pyx"
        if core.exists():
            native = core.read_text(encoding="utf-8")
            assert ("if self.s.rejected_count:" in native) == shuffled, module_name
            assert ("if policy == 0:" in native) == ordered, module_name
        seen[found] += 1
    assert len(seen) >= 3  # the shipped editions do not all give back alike


def test_every_mechanism_part_is_printed_at_a_hook_point() -> None:
    """A part named after no hook point would never be printed, in silence: each file of a
    mechanism's ``engine`` folder names one of the engine's hook points, and its ``native``
    folder holds its native part alone."""
    from aventuriers.compiler.mechanisms import HOOKS, REGISTRY
    from aventuriers.compiler.mechanisms.base import GAME_CLASS, NATIVE_CLASS

    found = 0
    for mechanism in REGISTRY:
        for folder, hooks, suffix in (("engine", HOOKS, ".py.j2"), ("native", (NATIVE_CLASS,), ".pyx.j2")):
            for part in (
                sorted((mechanism.folder / folder).glob("*")) if (mechanism.folder / folder).is_dir() else []
            ):
                if folder == "engine" and part.name == f"{GAME_CLASS}.py.j2":
                    continue  # its class, printed between the core's and the public Game
                assert part.name.endswith(suffix) and part.name.removesuffix(suffix) in hooks, part
                found += 1
    assert found > 40


def test_every_native_override_names_a_block_of_the_core() -> None:
    """Jinja prints a child's block only where its parent has one: a mechanism's native block
    named after none of the core's would vanish in silence. The core template's blocks are
    those `NATIVE_BLOCKS` lists, in its order, each once."""
    from aventuriers.compiler.emit.native_core import CORE_TEMPLATE, template_blocks
    from aventuriers.compiler.mechanisms import REGISTRY
    from aventuriers.compiler.mechanisms.base import NATIVE_BLOCKS

    assert template_blocks(CORE_TEMPLATE) == NATIVE_BLOCKS
    overridden = 0
    for mechanism in REGISTRY:
        if (mechanism.folder / "native").is_dir():
            own = list(template_blocks(f"{mechanism.folder.name}/native/game.pyx.j2"))
            assert own and set(own) <= set(NATIVE_BLOCKS), mechanism.name
            assert own == sorted(own, key=NATIVE_BLOCKS.index), mechanism.name  # in the core's order
            overridden += len(own)
    assert overridden > 100


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
