"""Stage 4b, the rules part: the semantic checks of an edition's mechanisms.

Long tickets, the joker card, team play and the worked examples: each
declared where it is used, with numbers that fit together. A mixin of the
checker of ``compiler.check``, which holds the document and reports.
"""

from __future__ import annotations

from ..diagnostics import Code, did_you_mean
from ..ir.build import selected
from .lower import Document, JsonPath


class RuleChecks:
    """The checks of the mechanisms; the checker holds the fields annotated here."""

    __slots__ = ()
    document: Document
    data: dict

    def report(self, code: Code, message: str, path: JsonPath, hint: str | None = None) -> None:
        raise NotImplementedError  # the checker's

    def count(self, what: str, actual: int, declared: int | None, path: JsonPath) -> None:
        raise NotImplementedError  # the checker's

    def check_teams(self) -> None:
        """Team play: player counts the teams divide, shares the kept tickets allow, and the
        team-only rules (sharing tickets, team trains, doubles closed to a team) only with teams."""
        data = self.data
        teams = data.get("teams")
        team_only = [("turn", "share_tickets")] if "share_tickets" in data["turn"] else []
        if data["end"].get("trains_of") == "team":
            team_only.append(("end", "trains_of"))
        team_only += [
            ("double_routes", "rule", i, "twin")
            for i, rule in enumerate(data["double_routes"]["rule"])
            if rule["twin"] == "other_team"
        ]
        if teams is None:
            for path in team_only:
                self.report(
                    Code.INCONSISTENT_RULE,
                    f"« {path[-1]} » ne se joue qu’en équipes",
                    path,
                    hint="déclarez les équipes : « teams 2 … »",
                )
            return
        size, players = teams["size"], data["players"]
        counts = range(players["min"], players["max"] + 1)
        if not any(count % size == 0 and count >= 2 * size for count in counts):
            self.report(
                Code.BAD_PLAYER_RANGES,
                f"aucun nombre de joueurs de {players['min']} à {players['max']} ne forme au moins deux "
                f"équipes de {size}",
                ("teams", "size"),
            )
        elif players["min"] < 2 * size:
            # A single team would win every game it plays.
            self.report(
                Code.BAD_PLAYER_RANGES,
                f"à {players['min']} joueurs, il n’y a pas deux équipes de {size} : une partie en équipes "
                f"se joue à {2 * size} joueurs au moins",
                ("players",),
                hint=f"« players {2 * size}..{players['max']} »",
            )
        if teams["share_at_setup"] > data["setup"]["tickets"]["keep_at_least"]:
            self.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas partager à la mise en place plus de tickets qu’on n’en garde au moins",
                ("teams", "share_at_setup"),
            )
        draw = data["turn"].get("draw_tickets")
        if draw and teams["share_at_draw"] > draw["keep_at_least"]:
            self.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas partager après une pioche plus de tickets qu’on n’en garde au moins",
                ("teams", "share_at_draw"),
            )

    def check_joker(self) -> None:
        """Exactly one joker card in the deck, the one `joker` declares (a locomotive by default)."""
        joker = self.data.get("joker", {}).get("card", "locomotive")
        jokers = [card for card in ("locomotive", "tunnel") if self.data["cards"].get(card)]
        if jokers != [joker]:
            self.report(
                Code.INCONSISTENT_RULE,
                f"le paquet doit avoir une seule sorte de joker, « {joker} »"
                + (f" (trouvé : {', '.join(jokers)})" if jokers else " (absent)"),
                ("joker",) if "joker" in self.data else ("cards",),
                hint="« joker tunnel pays: tunnels » avec « cards { … tunnel 14 } »",
            )

    def check_mechanisms(self, route_ids: list[str]) -> None:
        """Long tickets: as many in the deck as the players are dealt."""
        data = self.data
        self.check_joker()
        long = data["setup"]["tickets"].get("long", 0)
        kinds = [data["tickets"]["ticket"][i].get("kind", "regular") for i in selected(data["tickets"])]
        if long and long * data["players"]["max"] > kinds.count("long"):
            self.report(
                Code.INCONSISTENT_RULE,
                f"{long} ticket(s) long(s) par joueur, mais la pioche n’en a que {kinds.count('long')}",
                ("setup", "tickets", "long"),
            )

    def check_example(self, route_ids: list[str], ticket_ids: list[str]) -> None:
        example = self.data.get("score_example")
        if not example:
            return
        players = self.data["players"]
        if not players["min"] <= example["players"] <= players["max"]:
            self.report(
                Code.BAD_PLAYER_RANGES,
                f"l’exemple se joue à {example['players']} joueurs ; l’édition se joue de {players['min']} à "
                f"{players['max']}",
                ("score_example", "players"),
            )
        teams = self.data.get("teams")
        if teams and (example["players"] % teams["size"] or example["players"] < 2 * teams["size"]):
            # The example's opponent sits in the next team: there must be two whole teams.
            self.report(
                Code.BAD_PLAYER_RANGES,
                f"l’exemple se joue à {example['players']} joueurs : il faut au moins deux équipes "
                f"entières de {teams['size']}",
                ("score_example", "players"),
                hint=f"« players {2 * teams['size']} » dans « score_example »"
                if players["min"] <= 2 * teams["size"] <= players["max"]
                else None,
            )
        if example.get("holder_tickets") and not teams:
            self.report(
                Code.INCONSISTENT_RULE,
                "« holder_tickets » ne se joue qu’en équipes",
                ("score_example", "holder_tickets"),
            )
        missing = [
            (key, index, name, known)
            for key, known in (
                ("routes", route_ids),
                ("opponent_routes", route_ids),
                ("tickets", ticket_ids),
                ("holder_tickets", ticket_ids),
            )
            for index, name in enumerate(example.get(key, []))
            if name not in known
        ]
        inherited = self.document.span(("score_example",)).source.name != self.document.source.name
        if missing and inherited and "score_example" in self.document.edits:
            # A variant's own board or edits left the inherited example behind: one error, at its cause.
            shown = ", ".join(f"« {name} »" for _, _, name, _ in missing[:4]) + (
                " …" if len(missing) > 4 else ""
            )
            self.report(
                Code.UNKNOWN_REFERENCE,
                f"l’exemple de score hérité nomme {len(missing)} routes ou tickets absents de cette édition : {shown}",
                ("score_example",),
                hint="« without score_example », ou un exemple de score de cette édition",
            )
            return
        for key, index, name, known in missing:
            self.report(
                Code.UNKNOWN_REFERENCE,
                f"« {name} » n\u2019existe pas",
                ("score_example", key, index),
                did_you_mean(name, known),
            )
