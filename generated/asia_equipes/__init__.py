"""asia-equipes: generated rules engine and French rule sheet (fiche.md)."""

from .engine import *  # noqa: F403
from .engine import __all__  # noqa: F401
