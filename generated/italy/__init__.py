"""italy: generated rules engine, French rule sheet (fiche.md) and board (plateau.svg)."""

from .engine import *  # noqa: F403
from .engine import __all__  # noqa: F401
