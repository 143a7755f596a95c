"""French wording: typography, colour names, numbers, illegal-move messages.

Every sentence a player reads is written here or in the sheet view model,
never in a template, so that typography is applied in one place.
"""

from __future__ import annotations

import errno
import re
import unicodedata
from dataclasses import dataclass

NBSP = "\u00a0"  # before « : » and inside « »
NNBSP = "\u202f"  # narrow, before ; ! ?

COLOR_NAMES = {
    "red": "rouge",
    "blue": "bleu",
    "green": "vert",
    "yellow": "jaune",
    "orange": "orange",
    "black": "noir",
    "white": "blanc",
    "pink": "rose",
    "gray": "gris",
    "locomotive": "locomotive",
    "tunnel": "carte Tunnel",
}

# The joker cards, singular and plural (both feminine, like « carte »).
JOKERS = {"locomotive": ("locomotive", "locomotives"), "tunnel": ("carte Tunnel", "cartes Tunnel")}


KIND_ONE = {"tunnels": "un tunnel", "ferries": "un ferry"}
KIND_ALL = {"tunnels": "les tunnels", "ferries": "les ferries"}


# A colour as an adjective: masculine singular and plural, feminine singular and plural.
COLOR_ADJECTIVES = {
    "red": ("rouge", "rouges", "rouge", "rouges"),
    "blue": ("bleu", "bleus", "bleue", "bleues"),
    "green": ("vert", "verts", "verte", "vertes"),
    "yellow": ("jaune", "jaunes", "jaune", "jaunes"),
    "orange": ("orange", "orange", "orange", "orange"),
    "black": ("noir", "noirs", "noire", "noires"),
    "white": ("blanc", "blancs", "blanche", "blanches"),
    "pink": ("rose", "roses", "rose", "roses"),
    "gray": ("gris", "gris", "grise", "grises"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class JokerWording:
    """How the sheets name the edition's joker card, and what it pays."""

    card: str  # « locomotive » or « tunnel », as in payments
    tunnels_only: bool
    # The kinds of route it pays when not every one ("tunnels", "ferries"), as in the IR.
    kinds: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        """« sur un tunnel », « sur un tunnel ou un ferry »: where the joker pays."""
        return "sur " + " ou ".join(KIND_ONE[kind] for kind in self.kinds or ("tunnels",))

    @property
    def where_all(self) -> str:
        """« sur les tunnels », « sur les tunnels et les ferries »."""
        return "sur " + " et ".join(KIND_ALL[kind] for kind in self.kinds or ("tunnels",))

    @property
    def one(self) -> str:
        return JOKERS[self.card][0]

    @property
    def many(self) -> str:
        return JOKERS[self.card][1]

    @property
    def stands_in(self) -> str:
        """What the claim-route rule says of the joker."""
        if self.tunnels_only or self.kinds:
            return (
                f"les {self.many} remplacent n’importe quelle couleur, mais {self.where} seulement : "
                "jamais sur une route ordinaire"
            )
        return f"les {self.many} remplacent n’importe quelle couleur"

    @property
    def described(self) -> str:
        """The material list's words for the joker cards."""
        if self.tunnels_only:
            return f"{self.many}, qui servent de joker sur les tunnels seulement"
        if self.kinds:
            return f"{self.many} multicolores, qui servent de joker {self.where_all} seulement"
        return f"{self.many} multicolores, qui servent de joker"


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackWording:
    """How the sheets speak of a route's other tracks: « l’autre voie » of a double route, or
    « les autres voies » once the board has a triple one."""

    triples: bool

    @property
    def never_two(self) -> str:
        if self.triples:
            return "Un même joueur ne prend jamais deux voies d’une même route double ou triple."
        return "Un même joueur ne prend jamais les deux voies d’une route double."

    @property
    def closed(self) -> str:
        """After « À 2 ou 3 joueurs, » : the rule closing the other tracks."""
        if self.triples:
            return "dès qu’une voie est prise, les autres sont fermées à tous."
        return "dès qu’une voie est prise, l’autre est fermée à tous."

    @property
    def open_to_players(self) -> str:
        if self.triples:
            return "les autres voies restent ouvertes aux autres joueurs."
        return "l’autre voie reste ouverte à un autre joueur."

    def open_to_teams(self, mate: str) -> str:
        if self.triples:
            return f"les autres voies restent ouvertes aux autres équipes, jamais à {mate}."
        return f"l’autre voie reste ouverte à une autre équipe, jamais à {mate}."

    @property
    def mistake(self) -> str:
        """Before « à 2 ou 3 joueurs. »: the mistake of using more than one track."""
        if self.triples:
            return "Utiliser plus d’une voie d’une route double ou triple"
        return "Utiliser les deux voies d’une route double"

    @property
    def diff_values(self) -> dict[str, str]:
        """The differences page's words for each twin policy, by its value in the spec."""
        if self.triples:
            return {
                "closed": "les autres voies se ferment",
                "other_player": "les autres voies restent ouvertes",
                "other_team": "les autres voies restent ouvertes aux autres équipes",
            }
        return {
            "closed": "l’autre voie se ferme",
            "other_player": "l’autre voie reste ouverte",
            "other_team": "l’autre voie reste ouverte à une autre équipe",
        }


# Colour adjectives agreeing with « carte » (feminine), singular and plural.
CARD_ADJECTIVES = {
    "red": ("rouge", "rouges"),
    "blue": ("bleue", "bleues"),
    "green": ("verte", "vertes"),
    "yellow": ("jaune", "jaunes"),
    "orange": ("orange", "orange"),
    "black": ("noire", "noires"),
    "white": ("blanche", "blanches"),
    "pink": ("rose", "roses"),
}

NUMBER_WORDS = {
    0: "zéro", 1: "un", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq",
    6: "six", 7: "sept", 8: "huit", 9: "neuf", 10: "dix", 11: "onze", 12: "douze",
}  # fmt: skip

# Seats in turn order, as a sentence names them (« le premier joueur », « le deuxième »…).
SEATS = ("premier", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième")

_SPACE_BEFORE = re.compile(r"[ \u00a0\u202f]*([:;!?»])")
_SPACE_AFTER = re.compile(r"«[ \u00a0\u202f]*")


# What the system says of a file or a socket, in French for the common cases.
OS_REASONS = {
    errno.ENOENT: "chemin introuvable",
    errno.EACCES: "permission refusée",
    errno.EPERM: "opération non permise",
    errno.EROFS: "système de fichiers en lecture seule",
    errno.ENOSPC: "plus de place sur le disque",
    errno.EDQUOT: "quota dépassé",
    errno.ENOTDIR: "un élément du chemin n’est pas un dossier",
    errno.EISDIR: "c’est un dossier",
    errno.EEXIST: "le fichier existe déjà",
    errno.EADDRINUSE: "adresse déjà utilisée (un autre programme écoute sur ce port)",
    errno.EADDRNOTAVAIL: "cette machine n’a pas cette adresse",
}


def os_reason(error: OSError) -> str:
    """What the system said, in French where it is a common case."""
    return OS_REASONS.get(error.errno or 0) or error.strerror or str(error)


def typo(text: str) -> str:
    """French spacing (a no-break space before « : » and « », a narrow one before ; ! ?)
    and typographic apostrophes."""

    def before(match: re.Match[str]) -> str:
        mark = match.group(1)
        start = match.start()
        # Leave « http://… » and times (« 10:30 ») alone.
        after = text[match.end() : match.end() + 2]
        if mark == ":" and match.group(0) == ":" and (after == "//" or after[:1].isdigit()):
            return match.group(0)
        if start == 0 or text[start - 1] == "\n":
            return match.group(0)
        return (NBSP if mark in ":»" else NNBSP) + mark

    return _SPACE_AFTER.sub("«" + NBSP, _SPACE_BEFORE.sub(before, text)).replace("'", "’")


def words(number: int, *, feminine: bool = False) -> str:
    """« trois », « une » (feminine), « 13 »"""
    if feminine and number == 1:
        return "une"
    return NUMBER_WORDS.get(number, str(number))


def grouped(number: int) -> str:
    """« 443 703 »: thousands set apart by a narrow no-break space, as French prints them."""
    return f"{number:,}".replace(",", NNBSP)


def cards_phrase(count: int, color: str) -> str:
    """« une carte noire », « trois cartes noires », « deux locomotives »"""
    if color in JOKERS:
        return f"{words(count, feminine=True)} {JOKERS[color][1 if count > 1 else 0]}"
    if color == "any":
        return f"{words(count, feminine=True)} carte{'s' if count > 1 else ''}"
    singular, plural = CARD_ADJECTIVES[color]
    return (
        f"{words(count, feminine=True)} carte{'s' if count > 1 else ''} {plural if count > 1 else singular}"
    )


def number(value: float, digits: int = 0) -> str:
    """A number as a French reader writes it: « 1 234,5 », « −26,8 » (a narrow no-break space
    between thousands, a decimal comma, a real minus sign)."""
    text = f"{value:,.{digits}f}".replace(",", NNBSP).replace(".", ",")
    return text.replace("-", "\u2212")


def amount(count: int, singular: str, plural: str) -> str:
    """« 0 carte », « 1 carte », « 3 cartes »: French counts below two in the singular."""
    return f"{number(count)} {singular if -2 < count < 2 else plural}"


def counted(count: int, singular: str, plural: str) -> str:
    return singular if count == 1 else plural


def elided(word: str, following: str) -> str:
    """« que trois », « qu’un » : « de », « que », « le » elided before a vowel."""
    if following[:1].lower() in "aeiouyéèêàh" and word in ("de", "que", "le", "la"):
        return f"{word[:-1]}’{following}"
    return f"{word} {following}"


def hold_limit(
    most: int, singular: str, plural: str, *, feminine: bool = True, where: str = "en main"
) -> tuple[str, str]:
    """A limit on what a player holds (``hold_at_most N`` in a holding's block), the same words
    for any holding: the sheet's sentence (« Tu ne peux pas avoir plus de deux cartes Ferry en
    main. ») and the refusal of what would pass it (« Tu as déjà deux cartes Ferry en main, le
    plus qu’on peut en avoir. »)."""
    count = f"{words(most, feminine=feminine)} {singular if most == 1 else plural}"
    return (
        f"Tu ne peux pas avoir plus {elided('de', count)} {where}.",
        f"Tu as déjà {count} {where}, le plus qu’on peut en avoir.",
    )


def kept_phrase(least: int, most: int | None) -> str:
    """How many tickets a player keeps: « au moins deux », « de deux à trois », « d’un à deux »,
    « exactement deux »."""
    if most is None:
        return f"au moins {words(least)}"
    if most == least:
        return f"exactement {words(least)}"
    if least == 0:
        return f"au plus {words(most)}"
    return f"{elided('de', words(least))} à {words(most)}"


def of_name(name: str) -> str:
    """« de » before a name with its article, contracted as French wants it: « des Reading Lines »,
    « du New York Central System », « de la Pennsylvania Railroad », « de l’Erie »."""
    for article, contracted in (("les ", "des "), ("le ", "du ")):
        if name.startswith(article):
            return contracted + name[len(article) :]
    return f"de {name}"


def alphabetical_key(name: str, *, article: bool = True) -> str:
    """A name's place in a French list: accents and case ignored and, for a name said with its
    article (`article`), the article set aside (« l’Ombrie » between « les Marches » and « le
    Piémont », « l’Émilie-Romagne » among the E). A city's name keeps its own (« La Spezia »)."""
    bare = name if not article else re.sub(r"^(?:(?:les?|la)\s+|l[’'])", "", name, flags=re.IGNORECASE)
    letters = unicodedata.normalize("NFD", bare)
    return "".join(c for c in letters if not unicodedata.combining(c)).casefold()


def alphabetical(names: list[str], *, article: bool = True) -> list[str]:
    """Names in French alphabetical order (`alphabetical_key`)."""
    return sorted(names, key=lambda name: (alphabetical_key(name, article=article), name))


def enumerate_or(items: list[str]) -> str:
    """« un ou deux », « un, deux ou trois »"""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " ou " + items[-1]


def enumerate_fr(items: list[str]) -> str:
    """« a, b et c »"""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " et " + items[-1]


def players_phrase(players, team: int = 1) -> str:
    """« À 2 ou 3 joueurs », from an IR Range; in teams of ``team``, only the counts that make
    two whole teams or more (« À 4 ou 6 joueurs »)."""
    if team > 1:
        counts = [str(n) for n in range(players.min, players.max + 1) if n % team == 0 and n >= 2 * team]
        if len(counts) > 1 and len(counts) != players.max - players.min + 1:
            return "À " + ", ".join(counts[:-1]) + " ou " + counts[-1] + " joueurs"
        if len(counts) == 1:
            return f"À {counts[0]} joueurs"
    if players.min == players.max:
        return f"À {players.min} joueurs"
    if players.max == players.min + 1:
        return f"À {players.min} ou {players.max} joueurs"
    return f"De {players.min} à {players.max} joueurs"


def guillemets(text: str) -> str:
    return f"« {text} »"


def the_edition(title: str) -> str:
    """An edition by its title, as « l’édition « Italie » »: the noun carries the article, so that
    « de », « à » and « avec » need no agreement with the title (« de l’édition « Japon » »)."""
    return f"l’édition {guillemets(title)}"


# Illegal-move messages, by stable code. Fields in braces come from the engine.
MESSAGES = {
    "game_over": "La partie est terminée.",
    "malformed_action": "Une action est un dictionnaire : voyez la forme des actions dans le README.",
    "missing_type": "Il manque à l’action son champ « type ».",
    "unknown_action": "Action inconnue : « {type} ».",
    "missing_field": "Il manque le champ « {field} » à l’action « {type} ».",
    "unknown_field": "L’action « {type} » n’a pas de champ « {field} ».",
    "unknown_source": "Une carte se prend à la pioche (« deck ») ou parmi les cartes visibles (« market »), "
    "pas « {source} ».",
    "bad_slot": "Un emplacement visible se désigne par un nombre entier de 0 à {last}, pas « {slot} ».",
    "bad_cards": "Les cartes se donnent par couleur avec leur nombre, par exemple « red: 3 ».",
    "bad_card_count": "Le nombre de cartes « {color} » doit être un entier positif ou nul, pas « {count} ».",
    "bad_ticket_list": "Les tickets se donnent en liste de leurs identifiants.",
    "duplicate_ticket": "Le ticket « {ticket} » est cité deux fois.",
    "must_keep_tickets": "Tu dois d’abord choisir les tickets à garder.",
    "must_draw_second_card": "Tu dois prendre ta deuxième carte Wagon.",
    "no_tickets_to_keep": "Tu n’as aucun ticket à choisir maintenant.",
    "empty_deck": "La pioche et la défausse sont vides : aucune carte à piocher.",
    "invalid_slot": "Il n’y a pas d’emplacement visible numéro {slot} : ils vont de 0 à {last}.",
    "empty_slot": "L’emplacement visible {slot} est vide.",
    "unknown_route": "Route inconnue : « {route} ».",
    "route_taken": "La route « {route} » est déjà prise.",
    "double_route_same_player": "Tu as déjà l’autre voie de la route double « {route} ».",
    "double_route_closed": "À {players} joueurs, une seule voie de la route double « {route} » peut servir.",
    "not_enough_trains": "Il faut {needed} pour cette route ; il t’en reste {trains}.",
    "wrong_card_count": "Cette route se paie avec exactement {cards}, pas {given}.",
    "mixed_colors": "Une route se paie avec une seule couleur, complétée par des {JOKERS}.",
    "wrong_color": "Cette route se paie en {color}, complétée par des {JOKERS}.",
    "unknown_color": "Couleur de carte inconnue : « {color} ».",
    "not_enough_cards": "Il te faut {wanted} et tu en as {held}.",
    "no_tickets_left": "Il ne reste aucun ticket à piocher.",
    "ticket_not_offered": "Le ticket « {ticket} » ne fait pas partie des tickets proposés.",
    "too_few_tickets": "Tu dois garder au moins {tickets}.",
    "return_order_not_allowed": "Tu ne choisis pas l’ordre des tickets que tu rends : {why}.",
    "bad_return_order": "L’ordre de retour doit citer chaque ticket rendu une fois.",
    "pass_not_allowed": "Tu ne peux passer que si aucune autre action n’est possible.",
    "unknown_action_id": "Il n’y a pas d’action numéro {id} : les numéros vont de 0 à {last}.",
    "action_id_not_legal": "L’action numéro {id} ne correspond pas aux tickets que tu as maintenant.",
}

# Messages of the mechanisms only some editions use, emitted only into those engines.
MECHANISM_MESSAGES = {
    "face_up_locomotive_whole_turn": {
        "locomotive_second_card": "Une {JOKER} visible ne peut pas être prise en deuxième carte.",
    },
    "owed_cards": {
        "not_enough_cards_owed": "Cette route coûte encore {cards} de n’importe quelle couleur, mais il ne t’en "
        "reste que {spare} en main.",
        "no_cards_owed": "Aucune route n’attend de carte en ce moment.",
        "must_pay_owed_cards": "Termine d’abord de payer ta route : donne les cartes qu’elle attend encore.",
    },
    "keep_at_most": {
        "too_many_tickets": "Tu peux garder au plus {tickets}.",
    },
    "keep_among_regular": {
        "too_few_regular_tickets": "Tu dois garder au moins {tickets}.",
    },
}


# Messages a mechanism words otherwise, for the codes the engine already has (a board with a
# triple route says « une autre voie », never « l’autre voie de la route double »).
MECHANISM_REWORDINGS = {
    "triple_routes": {
        "double_route_same_player": "Tu as déjà une autre voie de la route « {route} ».",
        "double_route_closed": "À {players} joueurs, une seule voie de la route « {route} » peut servir.",
        "double_route_same_team": "Ton équipe a déjà une autre voie de la route « {route} ».",
    },
}


def card_forms() -> dict[str, tuple[str, str]]:
    """« carte bleue » / « cartes bleues » by colour (and the locomotive), for engine messages."""
    forms = {color: (f"carte {one}", f"cartes {many}") for color, (one, many) in CARD_ADJECTIVES.items()}
    forms.update(JOKERS)
    return forms


def engine_messages(
    mechanisms: set[str] = frozenset(), joker: str = "locomotive", own: dict[str, str] | None = None
) -> dict[str, str]:
    """The message catalogue of an engine using ``mechanisms``, French typography applied;
    {JOKER} and {JOKERS} name the edition's joker card. ``own``: the messages of the registered
    mechanisms (``compiler.mechanisms``) the edition uses."""
    catalogue = dict(MESSAGES)
    catalogue.update(own or {})
    for mechanism in sorted(mechanisms):
        catalogue.update(MECHANISM_MESSAGES.get(mechanism, {}))
    for mechanism in sorted(mechanisms):
        reworded = MECHANISM_REWORDINGS.get(mechanism, {})
        catalogue.update({code: text for code, text in reworded.items() if code in catalogue})
    one, many = JOKERS[joker]
    return {
        code: typo(text.replace("{JOKER}", one).replace("{JOKERS}", many))
        for code, text in sorted(catalogue.items())
    }


def at_country(name: str) -> str:
    """Where, in a country named in French: « au Danemark », « en France », « aux Pays-Bas »,
    « en Autriche » (feminine names end in e, as do most; a plural one in s)."""
    if name.endswith("s"):
        return f"aux {name}"
    if name[:1].lower() in "aeiouyéèâîô" or name.endswith("e"):
        return f"en {name}"
    return f"au {name}"
