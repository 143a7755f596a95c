"""A spec is data: hostile strings reach the engine as plain strings, never as code."""

from __future__ import annotations

import html as html_module
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


# A country named to smuggle a picture of the disk, a beacon and a link into every output.
HOSTILE_COUNTRY = (
    "Italia ![p](/etc/hostname) ![b](http://127.0.0.1:18999/beacon.png) [clic](https://x.example/)"
)
HOSTILE_TARGET = "Terra <img src=http://127.0.0.1:18999/t.png> www.example.org a@b.example"


def _live_markup(page: str) -> list[str]:
    """What CommonMark (links and pictures on) would make live in ``page``: links, pictures, raw HTML."""
    from markdown_it import MarkdownIt

    found = []
    for token in MarkdownIt("commonmark").enable("table").parse(page):
        for child in [token, *(token.children or [])]:
            if child.type in {"link_open", "image", "html_inline", "html_block"}:
                found.append(child.type)
    return found


def test_country_names_and_targets_stay_text_everywhere(tmp_path, capsys) -> None:
    """Strings in every field (a country, a ticket's target) are escaped by their type, not by a list."""
    from aventuriers.compiler.cli import main

    for name in ("tiny", "pays"):
        text = (BROKEN / f"{name}.aventuriers").read_text(encoding="utf-8")
        text = text.replace('"Xland', spec_literal(HOSTILE_COUNTRY)[:-1])
        text = text.replace('"Yland"', spec_literal(HOSTILE_TARGET)).replace(
            '"Yland#', '"' + HOSTILE_TARGET + "#"
        )
        (tmp_path / f"{name}.aventuriers").write_text(text, encoding="utf-8")
    spec = tmp_path / "pays.aventuriers"
    assert HOSTILE_COUNTRY in spec.read_text(encoding="utf-8")
    html = tmp_path / "fiche.html"
    commands = (["sheet", str(spec)], ["diff", str(tmp_path / "tiny.aventuriers"), str(spec)])
    for command in commands:
        assert main(command) == 0
        page = capsys.readouterr().out
        assert "Italia" in page and "Terra" in page
        assert _live_markup(page) == [], command
        assert "http://" not in page and "www." not in page and "a@b" not in page  # no autolink either
    assert main(["sheet", str(spec), "--format", "html", "-o", str(html)]) == 0
    document = html.read_text(encoding="utf-8")
    assert "Italia" in document
    assert not re.search(r"<(img|a|iframe|script|link|object|embed)\b", document, re.IGNORECASE)
    assert "Content-Security-Policy" in document and "default-src 'none'" in html_module.unescape(document)


def test_the_balance_report_title_is_text(tmp_path) -> None:
    from aventuriers.play.balance import BalanceTally, report

    class Engine:
        TITLE = "Bilan [clic](http://x.example/) <b>"
        # Cities are named by the spec, so they are hostile text too.
        TICKETS = {"a-b": {"a": "<i>A</i>", "b": "[B](http://y.example/)", "points": 3}}
        ROUTES = {
            "a-b": {"a": "<i>A</i>", "b": "[B](http://y.example/)", "length": 1, "color": "red", "twin": None}
        }
        DOUBLE_ROUTE_RULES = ((2, 5, True),)

    tally = BalanceTally(seats=2)
    tally.add(
        {"ticket_results": [[["a-b", True]]], "routes_taken": ["a-b"], "winners": [0], "scores": [10, 5]}
    )
    page = report(Engine, tally, None)
    assert _live_markup(page) == [] and "Bilan" in page and "A" in page


def test_the_pdf_print_fetches_nothing_and_runs_nothing(tmp_path) -> None:
    """Whatever the page holds, printing it reads no file beside it, calls no server and runs no script."""
    import base64
    import http.server
    import shutil
    import subprocess
    import threading

    from aventuriers.compiler.pdf import find_chromium, print_pdf

    from .conftest import missing

    if find_chromium() is None:
        missing("Chromium")
    if shutil.which("pdfimages") is None or shutil.which("pdftotext") is None:
        missing("poppler-utils (pdfimages, pdftotext)")
    requests: list[str] = []

    class Beacon(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Beacon)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    local = tmp_path / "secret.png"  # a 3 × 5 picture, easy to find among the PDF's images
    local.write_bytes(
        base64.b64decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAMAAAAFCAIAAAAPE8H1AAAAEElEQVR4nGP4z8AAQQxEsgCEuw7yxezkBQAAAABJRU5ErkJggg=="
        )
    )
    page = (
        f'<!DOCTYPE html><html><head><link rel="stylesheet" href="http://127.0.0.1:{port}/css"></head><body>'
        f'<p>Fiche</p><img src="http://127.0.0.1:{port}/beacon.png"><img src="http://localhost:{port}/b">'
        f'<img src="{local.as_uri()}"><iframe src="http://127.0.0.1:{port}/frame"></iframe>'
        f'<script>document.body.append("SCRIPT-RAN"); fetch("http://127.0.0.1:{port}/js")</script>'
        "</body></html>"
    )
    target = tmp_path / "fiche.pdf"
    try:
        print_pdf(page, target)
    finally:
        server.shutdown()
    assert requests == []
    images = subprocess.run(["pdfimages", "-list", str(target)], capture_output=True, text=True, check=True)
    sizes = {tuple(line.split()[3:5]) for line in images.stdout.splitlines()[2:]}
    assert ("3", "5") not in sizes, images.stdout
    text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, text=True, check=True).stdout
    assert "Fiche" in text and "SCRIPT-RAN" not in text


def test_a_mechanism_line_of_the_score_example_is_text(tmp_path, capsys) -> None:
    """The score example's lines a mechanism writes name spec strings (a property's French name):
    they reach the sheet escaped, like every other spec string."""
    from aventuriers.compiler.cli import main

    text = (Path(__file__).resolve().parent / "variants" / "usa-montagnes.aventuriers").read_text(
        encoding="utf-8"
    )
    hostile = "montagne *gras* [clic](https://x.example/)"
    text = text.replace('french: "montagne"', f"french: {spec_literal(hostile)}")
    text += "change route charleston-miami mountain: 1\n"  # a route of the score example
    (tmp_path / "usa-montagnes.aventuriers").write_text(text, encoding="utf-8")
    assert main(["sheet", str(tmp_path / "usa-montagnes.aventuriers")]) == 0
    page = capsys.readouterr().out
    example = page[page.index("## Exemple de score") :]
    # the mechanism’s lines: its extra train and its points on the track
    assert "(37 wagons, et 1 de plus pour sa montagne " in example
    assert ": 50 points sur la piste de score, dont 2 pour sa montagne " in example
    assert _live_markup(page) == []
    assert "*gras*" not in re.sub(r"\\.", "", page)
