"""The command line's own words in French: usage, help and argument errors.

argparse writes English; this parser keeps argparse's behaviour and says it in
French: a usage error is ``aventuriers: erreur : …`` after a French usage line,
with exit status 2 as argparse, ruff and gh give (a bad spec or a refused file is 1).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import NoReturn

from .diagnostics import did_you_mean

# The status of a command line that is misused (argparse's own).
USAGE_STATUS = 2
# Between a type's message and its hint, inside the one string argparse carries.
_HINT = "\x1f"

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
    from importlib import metadata  # only for --version: it costs a tenth of the start-up

    try:
        return metadata.version("aventuriers")
    except metadata.PackageNotFoundError:
        return "(non installé)"


class VersionAction(argparse.Action):
    """`--version`, which reads the installed version only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> NoReturn:
        print(f"aventuriers {version()}")
        parser.exit()


class UsageError(Exception):
    """A command line that parses but asks for what cannot be (7 players of a 2–5 game): said
    as argparse says a misuse, with the command's usage, and exit status 2."""


def refusal(message: str, hint: str | None = None) -> argparse.ArgumentTypeError:
    """What a `type=` function raises: the message, and a hint said on a line of its own."""
    return argparse.ArgumentTypeError(message + (_HINT + hint if hint else ""))


def positive(text: str) -> int:
    """A whole number of at least 1 (games, workers)."""
    try:
        value = int(text)
    except ValueError:
        raise refusal(f"un nombre entier est attendu, pas « {text} »") from None
    if value < 1:
        raise refusal("il faut au moins 1")
    return value


def translate(message: str) -> tuple[str, str | None]:
    """An argparse error in French, and a hint when a choice was misspelt."""
    for pattern, french in _MESSAGES:
        found = re.fullmatch(pattern, message)
        if found is None:
            continue
        hint = None
        groups = list(found.groups())
        if "invalid choice" in pattern:
            choices = re.findall(r"'([^']*)'", found.group(3)) or found.group(3).split(", ")
            hint = did_you_mean(found.group(2), choices) or "au choix : " + ", ".join(choices)
        elif _HINT in groups[-1]:
            groups[-1], hint = groups[-1].split(_HINT, 1)
        return french.format(*groups), hint
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

    def chosen(self, parsed: argparse.Namespace) -> FrenchParser:
        """The parser of the command given (`aventuriers simulate`), else this one."""
        return self._command_parser(parsed) or self

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
        self.exit(USAGE_STATUS, text)
