"""When the generated engine will not play a spec's worked example: the spec's error, located.

The worked examples are played at build time on the engine just generated, by the example
emitter and by the mechanisms whose rules have their own example (a tunnel, a set of cards).
Below both, so that the mechanisms need no emitter.
"""

from __future__ import annotations

import types

from ..diagnostics import Code, CompileError, Diagnostic
from ..frontend.positions import Span


def refused(span: Span | None, what: str, error: Exception) -> CompileError:
    """An example the generated engine will not play: the spec's error, located."""
    reason = getattr(error, "message", None) or str(error)
    assert span is not None
    return CompileError(
        [
            Diagnostic(
                code=Code.INCONSISTENT_RULE, message=f"{what} est refusé par le moteur : {reason}", span=span
            )
        ]
    )


def restored(engine: types.ModuleType, state: dict, span: Span | None, what: str):
    """The example's position as a game; a position no game can reach is the spec's error."""
    try:
        return engine.Game.from_dict(state)
    except ValueError as error:
        raise refused(span, what, ValueError(f"position impossible ({error})")) from None
