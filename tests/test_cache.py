"""The answers a command need not compute again (compiler/cache.py): the shipped editions' built
outputs, and a user's answers remembered under the hash of everything they depend on."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from aventuriers.compiler import cache, layout
from aventuriers.compiler.cli import main

VARIANT = (
    'edition cinq-tickets\nextends usa-2025\ntitle "USA, cinq tickets"\n'
    "setup {\n  tickets deal: 5 keep_at_least: 3 rejected: shuffled_under\n}\n"
)


@pytest.fixture()
def remembered(tmp_path, monkeypatch):
    """The user cache on, in a folder of this test's; the working folder a fresh one."""
    monkeypatch.delenv("AVENTURIERS_NO_CACHE", raising=False)
    monkeypatch.setenv("AVENTURIERS_CACHE", str(tmp_path / "cache"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def results(folder: Path) -> list[Path]:
    return sorted((folder.parent / "cache" / "results").glob("*.json"))


def compiles(monkeypatch) -> list[str]:
    """Every edition compiled from now on, by its path."""
    from aventuriers.compiler import build

    seen: list[str] = []
    original = build.compile_edition

    def counted(path, editions, **options):
        seen.append(str(path))
        return original(path, editions, **options)

    monkeypatch.setattr(build, "compile_edition", counted)
    return seen


def test_a_check_is_remembered_and_answered_the_same(remembered, monkeypatch, capsys) -> None:
    (remembered / "cinq-tickets.aventuriers").write_text(VARIANT, encoding="utf-8")
    seen = compiles(monkeypatch)
    assert main(["check", "cinq-tickets.aventuriers"]) == 0
    first = capsys.readouterr()
    assert seen == ["cinq-tickets.aventuriers"] and len(results(remembered)) == 1
    assert main(["check", "cinq-tickets.aventuriers"]) == 0
    assert capsys.readouterr() == first and len(seen) == 1  # answered without compiling
    assert first.out == "1 fichier(s) vérifié(s) : aucune erreur.\n"


def test_errors_are_remembered_with_their_status_and_message(remembered, monkeypatch, capsys) -> None:
    (remembered / "bad.aventuriers").write_text(
        'edition bad\nextends usa-2025\ntitel "x"\n', encoding="utf-8"
    )
    seen = compiles(monkeypatch)
    assert main(["check", "bad.aventuriers"]) == 1
    first = capsys.readouterr()
    assert "bad.aventuriers:3:" in first.err
    assert main(["check", "bad.aventuriers"]) == 1
    assert capsys.readouterr() == first and len(seen) == 1


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda work: (work / "cinq-tickets.aventuriers").write_text(VARIANT + "\n"), id="the file"
        ),
        pytest.param(
            lambda work: shutil.copy(layout.EDITIONS / "usa-2025.aventuriers", work / "usa-2025.aventuriers"),
            id="a parent beside it",
        ),
        pytest.param(lambda work: (work / "cinq-tickets.aventuriers").unlink(), id="the file removed"),
    ],
)
def test_a_change_to_what_the_answer_depends_on_compiles_again(
    remembered, monkeypatch, capsys, change
) -> None:
    (remembered / "cinq-tickets.aventuriers").write_text(VARIANT, encoding="utf-8")
    seen = compiles(monkeypatch)
    main(["check", "cinq-tickets.aventuriers"])
    capsys.readouterr()
    change(remembered)
    main(["check", "cinq-tickets.aventuriers"])
    assert len(seen) == 2, "the remembered answer was used though what it depends on changed"


def test_a_changed_compiler_compiles_again(remembered, monkeypatch, capsys) -> None:
    (remembered / "cinq-tickets.aventuriers").write_text(VARIANT, encoding="utf-8")
    seen = compiles(monkeypatch)
    main(["check", "cinq-tickets.aventuriers"])
    monkeypatch.setitem(cache._fingerprints, layout.ROOT, ("another compiler", True))
    main(["check", "cinq-tickets.aventuriers"])
    assert len(seen) == 2


def test_a_remembered_sheet_is_the_compiled_one(remembered, monkeypatch, capsys) -> None:
    (remembered / "cinq-tickets.aventuriers").write_text(VARIANT, encoding="utf-8")
    monkeypatch.setenv("AVENTURIERS_NO_CACHE", "1")
    assert main(["sheet", "cinq-tickets.aventuriers", "--format", "html"]) == 0
    compiled = capsys.readouterr()
    monkeypatch.delenv("AVENTURIERS_NO_CACHE")
    for _ in range(2):
        assert main(["sheet", "cinq-tickets.aventuriers", "--format", "html"]) == 0
        assert capsys.readouterr() == compiled


def test_a_corrupt_entry_is_a_miss(remembered, monkeypatch, capsys) -> None:
    (remembered / "cinq-tickets.aventuriers").write_text(VARIANT, encoding="utf-8")
    seen = compiles(monkeypatch)
    main(["check", "cinq-tickets.aventuriers"])
    for entry in results(remembered):
        entry.write_text("{not json", encoding="utf-8")
    assert main(["check", "cinq-tickets.aventuriers"]) == 0
    assert len(seen) == 2 and capsys.readouterr().out.endswith("aucune erreur.\n")


def test_the_user_cache_keeps_a_bounded_number_of_answers(remembered, monkeypatch) -> None:
    monkeypatch.setattr(cache, "MAX_RESULTS", 3)
    for index in range(5):
        cache.remember("check", [index], cache.Inputs(), {"status": 0})
    assert len(results(remembered)) == 3
    assert cache.recall("check", [4]) == {"status": 0} and cache.recall("check", [0]) is None


@pytest.mark.parametrize("module", [layout.module_name(name) for name in layout.playable_specs()])
def test_every_shipped_edition_is_read_from_its_build(module) -> None:
    """The built outputs match the specs and the compiler (test_golden checks that they are what
    a compile gives): `editions` and `sheet` read them."""
    record = cache.shipped_record(module)
    assert record is not None, f"generated/{module}/edition.json is not up to date: run aventuriers build"
    assert all(name.startswith("editions/") for name in record["sources"])


def test_a_shipped_edition_whose_spec_changed_is_compiled(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("AVENTURIERS_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "root"
    for folder in ("compiler", "spec", "editions", "generated/usa_2025"):
        (root / folder).mkdir(parents=True)
    for path in cache._compiler_files(layout.ROOT):
        target = root / path.relative_to(layout.ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    shutil.copy(layout.GENERATED / "usa_2025" / cache.EDITION_FILE, root / "generated/usa_2025")
    for name in json.loads((layout.GENERATED / "usa_2025" / cache.EDITION_FILE).read_text())["sources"]:
        shutil.copy(layout.ROOT / name, root / name)
    assert cache.shipped_record("usa_2025", root) is not None
    spec = root / "editions" / "usa-2025.aventuriers"
    spec.write_text(spec.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert cache.shipped_record("usa_2025", root) is None
    spec.write_text(spec.read_text(encoding="utf-8")[:-1], encoding="utf-8")
    assert cache.shipped_record("usa_2025", root) is not None
    (root / "compiler" / "cli.py").write_text("# another compiler\n", encoding="utf-8")
    cache._fingerprints.pop(root)  # a new run: the compiler is read again
    assert cache.shipped_record("usa_2025", root) is None


def test_the_fingerprint_reads_the_compiler_again_when_a_file_changes(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("AVENTURIERS_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "root"
    (root / "compiler").mkdir(parents=True)
    (root / "spec").mkdir()
    for name in ("aventuriers.lark", "schema.json"):
        (root / "spec" / name).write_text("x", encoding="utf-8")
    module = root / "compiler" / "stage.py"
    module.write_text("A = 1\n", encoding="utf-8")
    first = cache.fingerprint(root)
    cache._fingerprints.clear()
    assert cache.fingerprint(root) == first  # from the remembered stat
    module.write_text("A = 2\n", encoding="utf-8")
    os.utime(module, ns=(1, 1))  # a new stat: read again
    cache._fingerprints.clear()
    assert cache.fingerprint(root) != first


# --- what one process, or one machine, keeps of a compile -------------------------------------


def _tree_with_positions(tree) -> tuple:
    from lark import Token

    if isinstance(tree, Token):
        return (tree.type, str(tree), tree.line, tree.column, tree.end_line, tree.end_column)
    meta = tree.meta
    where = tuple(getattr(meta, name, None) for name in ("line", "column", "end_line", "end_column"))
    return (tree.data, where, tuple(_tree_with_positions(child) for child in tree.children))


def test_the_parser_tables_are_kept_and_a_broken_copy_is_built_again(tmp_path, monkeypatch) -> None:
    from aventuriers.compiler.frontend import parse

    monkeypatch.setenv("AVENTURIERS_CACHE", str(tmp_path / "cache"))
    text = (layout.ROOT / "editions" / "europe.aventuriers").read_text(encoding="utf-8")
    parse.parser.cache_clear()
    try:
        built = parse.parser()
        [kept] = (tmp_path / "cache" / "parser").glob("*.lark")
        parse.parser.cache_clear()
        loaded = parse.parser()
        assert loaded is not built
        assert _tree_with_positions(loaded.parse(text)) == _tree_with_positions(built.parse(text))
        kept.write_bytes(kept.read_bytes()[:100])  # cut short, as by a full disk
        parse.parser.cache_clear()
        rebuilt = parse.parser()
        assert _tree_with_positions(rebuilt.parse(text)) == _tree_with_positions(built.parse(text))
        assert kept.stat().st_size > 100  # written whole again
        assert [path.name for path in kept.parent.iterdir()] == [kept.name]  # no temporary file left
    finally:
        parse.parser.cache_clear()


def test_a_document_read_again_is_a_copy_and_a_changed_text_is_read_anew(tmp_path) -> None:
    from aventuriers.compiler.frontend.resolve import load_document

    spec = tmp_path / "v.aventuriers"
    spec.write_text(VARIANT, encoding="utf-8")
    first, _ = load_document(spec, "v.aventuriers")
    first.data["setup"]["tickets"]["deal"] = 99  # what a merge or an edit may do to its copy
    again, _ = load_document(spec, "v.aventuriers")
    assert again.data["setup"]["tickets"]["deal"] == 5
    spec.write_text(VARIANT.replace("deal: 5", "deal: 6"), encoding="utf-8")
    changed, _ = load_document(spec, "v.aventuriers")
    assert changed.data["setup"]["tickets"]["deal"] == 6
    broken = tmp_path / "w.aventuriers"
    broken.write_text("edition w\nextends {\n", encoding="utf-8")
    for _ in range(2):  # an error read again is the same error, once
        document, found = load_document(broken, "w.aventuriers")
        assert document is None and [d.code.value for d in found] == ["S103"]
