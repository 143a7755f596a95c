"""Stage 4a: inheritance. A child edition's document over its parent's.

Pure data: two lowered documents in, one merged document (with spans that
still point at the statement each value came from) and diagnostics out.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Code, Diagnostic
from .edits import apply_edits, get_path, set_path
from .lower import Document, JsonPath, resolve_ref, schema
from .positions import Span


def merge(parent: Document, child: Document) -> tuple[Document, list[Diagnostic]]:
    """The child's statements over the parent's.

    Blocks merge key by key; an array marked ``x-key`` in the schema merges item
    by item on that key, or on those keys (a child's ``bonus globetrotter`` adds a
    bonus, its ``bonus longest_path`` re-prices one, ``without bonus longest_path``
    drops one; a ``city`` or a ``route`` line adds one to the board, or replaces
    the inherited one of that name, of those ends and colour; ``without cities``
    and ``without routes`` drop every inherited one first); any other value or
    array is replaced whole, tables included (an object whose keys are rows,
    ``route_points 1: 1, 2: 2``: a child's table drops the rows it leaves out).
    Spans follow their items.
    """
    merger = _Merger(parent, child)
    data = merger.values(parent.data, child.data, schema(), ())
    apply_edits(merger, data)
    merged = Document(
        source=child.source,
        data=data,
        spans=merger.spans,
        removed=parent.removed | frozenset(merger.removed),
        edits=merger.edits,
    )
    return merged, merger.diagnostics


def is_table(node: dict | None) -> bool:
    """An object whose keys are its rows (a length, a count, a city: ``route_points``, a score
    table's ``points``, a token's ``on``), not named keys: a value, replaced whole."""
    node = resolve_ref(node) or {}
    return "properties" not in node and isinstance(node.get("additionalProperties"), dict)


def _schema_at(path: JsonPath) -> dict:
    """The schema of the value at ``path`` of a document ({} where it says nothing)."""
    node: dict = schema()
    for step in path:
        node = resolve_ref(node) or {}
        if isinstance(step, int):
            node = node.get("items", {})
        elif step in node.get("properties", {}):
            node = node["properties"][step]
        else:
            node = (
                node.get("additionalProperties") if isinstance(node.get("additionalProperties"), dict) else {}
            )
    return resolve_ref(node) or {}


class _Merger:
    def __init__(self, parent: Document, child: Document):
        self.parent, self.child = parent, child
        self.removed: set[tuple[str, str]] = set()
        self.edits: dict[str, Span] = {}
        self.diagnostics: list[Diagnostic] = []
        # What the child gives replaces what lies under it in the parent: a value, a list, a table.
        replaced = {
            path
            for path in child.spans
            if not isinstance(get_path(child.data, path), dict) or is_table(_schema_at(path))
        }
        self.spans = {
            path: span
            for path, span in parent.spans.items()
            if not any(path[:depth] in replaced for depth in range(len(path)))
        }
        self.spans.update({path: span for path, span in child.spans.items() if not self._in_keyed(path)})
        self.origins: dict[JsonPath, list[tuple[Document, int]]] = {}
        # The inherited lists the child replaces whole: `without cities`, `without routes`.
        dropped = {item.get("kind") for item in child.data.get("without", []) if isinstance(item, dict)}
        self.replaced_lists = {
            path
            for kind, path in (("cities", ("board", "city")), ("routes", ("board", "route")))
            if kind in dropped
        }

    def _in_keyed(self, path: JsonPath) -> bool:
        node = schema()
        for step in path:
            node = resolve_ref(node) or {}
            if isinstance(step, int):
                node = node.get("items", {})
                continue
            child = resolve_ref(node.get("properties", {}).get(step)) or {}
            if "x-key" in child:
                return True
            node = child
        return False

    def values(self, parent: Any, child: Any, node: dict | None, path: JsonPath) -> Any:
        node = resolve_ref(node) or {}
        if isinstance(parent, dict) and isinstance(child, dict) and not is_table(node):
            properties = node.get("properties", {})
            merged = dict(parent)
            for key, value in child.items():
                sub = properties.get(key)
                if path + (key,) in self.replaced_lists:
                    merged[key] = value
                    self.relocate(path + (key,), [(self.child, index) for index in range(len(value))])
                elif key in parent and "x-key" in (resolve_ref(sub) or {}):
                    merged[key] = self.keyed_list(
                        parent[key], value, resolve_ref(sub)["x-key"], path + (key,)
                    )
                elif key in parent:
                    merged[key] = self.values(parent[key], value, sub, path + (key,))
                else:
                    merged[key] = value
                    self.relocate_added(value, sub, path + (key,))
            return merged
        return child

    def relocate_added(self, value: Any, node: dict | None, path: JsonPath) -> None:
        """A value only the child has: the keyed lists it holds, at any depth (``region`` items
        inside a ``regions`` block), keep the child's spans."""
        node = resolve_ref(node) or {}
        if "x-key" in node and isinstance(value, list):
            self.relocate(path, [(self.child, index) for index in range(len(value))])
        elif isinstance(value, dict):
            for key, item in value.items():
                self.relocate_added(item, node.get("properties", {}).get(key), path + (key,))

    def keyed_list(self, parent: list, child: list, key: str | list[str], path: JsonPath) -> list:
        """Parent items in place (replaced by a child item of the same key), then new child items."""
        merged = list(parent)
        origins: list[tuple[Document, int]] = [(self.parent, index) for index in range(len(parent))]
        keys = [key] if isinstance(key, str) else key

        def key_of(item: Any) -> Any:
            return tuple(str(item.get(field)) for field in keys) if isinstance(item, dict) else None

        # Each key's parent items, in order: two gray tracks of one double route are matched in turn.
        position: dict[Any, list[int]] = {}
        for index, item in enumerate(parent):
            position.setdefault(key_of(item), []).append(index)
        completed: list[tuple[int, int, dict]] = []  # (merged index, parent index, child item)
        for index, item in enumerate(child):
            if position.get(key_of(item)):
                # A child item completes the parent's of the same key: `bonus longest_path { points 15 }`.
                at = position[key_of(item)].pop(0)
                merged[at] = {**parent[at], **item}
                origins[at] = (self.child, index)
                completed.append((at, at, item))
            else:
                merged.append(item)
                origins.append((self.child, index))
        self.relocate(path, origins)
        depth = len(path)
        for at, parent_index, item in completed:
            for p, span in self.parent.spans.items():
                inherited = p[:depth] == path and len(p) > depth + 1 and p[depth] == parent_index
                if inherited and p[depth + 1] not in item:
                    self.spans[path + (at,) + p[depth + 1 :]] = span
        self.origins[path] = origins
        return merged

    def relocate(self, path: JsonPath, origins: list[tuple[Document, int]]) -> None:
        depth = len(path)
        self.spans = {p: s for p, s in self.spans.items() if not (p[:depth] == path and len(p) > depth)}
        for new_index, (document, old_index) in enumerate(origins):
            for p, span in document.spans.items():
                if p[:depth] == path and len(p) > depth and p[depth] == old_index:
                    self.spans[path + (new_index,) + p[depth + 1 :]] = span

    def owner_origins(self, merged: dict, path: JsonPath) -> list[tuple[Document, int]]:
        """Where each item of the merged list at ``path`` came from."""
        if path in self.origins:
            return self.origins[path]
        owner = self.child if get_path(self.child.data, path) is not None else self.parent
        return [(owner, index) for index in range(len(get_path(merged, path)))]

    def keep_items(self, merged: dict, path: JsonPath, keep: list[int]) -> None:
        """Keep only the items ``keep`` of the list at ``path``, their spans following them."""
        before = self.owner_origins(merged, path)
        items = get_path(merged, path)
        set_path(merged, path, [items[index] for index in keep])
        origins = [before[index] for index in keep]
        self.relocate(path, origins)
        self.origins[path] = origins

    def edited(self, where: JsonPath, *keys: str, counts: bool = True) -> None:
        """The child's statement at ``where`` edits what it inherits under ``keys``; unless
        ``counts`` is False (a ``change`` of an item's fields), it may change how many items
        a key holds too (``KEY:count``, the cause of a count that does not match)."""
        for key in keys:
            self.edits[key] = self.child.span(where)
            if counts:
                self.edits[f"{key}:count"] = self.child.span(where)

    def report(self, code: Code, message: str, where: JsonPath, hint: str | None = None) -> None:
        self.diagnostics.append(
            Diagnostic(code=code, message=message, span=self.child.span(where), hint=hint)
        )
