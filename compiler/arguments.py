"""The command line's own words in French: usage, help and argument errors.

argparse writes English; this parser keeps argparse's behaviour and says it in
French: a usage error is ``aventuriers: erreur : …`` after a French usage line,
with exit status 1 like every other bad input.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from typing import NoReturn

from .diagnostics import did_you_mean

# argparse's messages (Python 3.11 to 3.13) and their French, most specific first.
_MESSAGES: tuple[tuple[str, str], ...] = (
    (
        r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)",
        "« {1} » n’est pas un choix possible pour {0}",
    ),
    (r"argument (\S+): invalid (\w+) value: '([^']*)'", "{0} attend un nombre entier, pas « {2} »"),
    (r"argument (\S+): expected one argument", "{0} attend une valeur"),
    (r"argument (\S+): expected at least one argument", "{0} attend au moins une valeur"),
    (r"argument (\S+): (.*)", "{0} : {1}"),
    (r"the following arguments are required: (.*)", "arguments obligatoires manquants : {0}"),
    (r"unrecognized arguments: (.*)", "arguments inconnus : {0}"),
    (r"ambiguous option: (\S+) could match (.*)", "option ambiguë : {0} peut désigner {1}"),
)


def version() -> str:
    try:
        return metadata.version("aventuriers")
    except metadata.PackageNotFoundError:
        return "(non installé)"


def translate(message: str) -> tuple[str, str | None]:
    """An argparse error in French, and a hint when a choice was misspelt."""
    for pattern, french in _MESSAGES:
        found = re.fullmatch(pattern, message)
        if found is None:
            continue
        hint = None
        if "invalid choice" in pattern:
            choices = re.findall(r"'([^']*)'", found.group(3)) or found.group(3).split(", ")
            hint = did_you_mean(found.group(2), choices) or "au choix : " + ", ".join(choices)
        return french.format(*found.groups()), hint
    return message, None


# What the positional arguments of the commands are, said once for every command.
EDITION_HELP = "une édition livrée (« aventuriers editions » les liste) ou un fichier de spec .aventuriers"


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        super().add_usage(usage, actions, groups, prefix="utilisation : " if prefix is None else prefix)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        """The help, with the default value when there is one worth saying and it is not said yet."""
        text = action.help or ""
        default = action.default
        if (
            action.option_strings
            and default is not None
            and default is not False
            and default != argparse.SUPPRESS
            and "par défaut" not in text
            and text
        ):
            text += f" (par défaut\u00a0: {default})"
        return text

    def start_section(self, heading) -> None:
        # argparse glues the colon to the heading; French typography wants a no-break space.
        super().start_section(f"{heading}\u00a0" if heading else heading)


class FrenchParser(argparse.ArgumentParser):
    """An ArgumentParser that speaks French; subcommands get the same class."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["add_help"] = False
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = "arguments"
        self._optionals.title = "options"
        self.add_argument("-h", "--help", action="help", help="afficher cette aide et quitter")

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            # Said by the command that was given, with the option meant when one is close.
            command = self._command_parser(parsed) or self
            unknown = next((extra.split("=", 1)[0] for extra in extras if extra.startswith("-")), None)
            hint = did_you_mean(unknown, command._option_string_actions) if unknown else None
            command.fail(f"arguments inconnus : {' '.join(extras)}", hint)
        return parsed

    def _command_parser(self, parsed: argparse.Namespace) -> FrenchParser | None:
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
                return chosen if isinstance(chosen, FrenchParser) else None
        return None

    def error(self, message: str) -> NoReturn:
        self.fail(*translate(message))

    def fail(self, french: str, hint: str | None = None) -> NoReturn:
        self.print_usage(sys.stderr)
        text = f"{self.prog}: erreur : {french}\n"
        if hint:
            text += f"      = aide : {hint}\n"
        self.exit(1, text)
