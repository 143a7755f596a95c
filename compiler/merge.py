"""Stage 4a: inheritance. A child edition's document over its parent's.

Pure data: two lowered documents in, one merged document (with spans that
still point at the statement each value came from) and diagnostics out.
"""

from __future__ import annotations

from typing import Any

from .diagnostics import Code, Diagnostic, did_you_mean
from .lower import Document, JsonPath, resolve_ref, schema


def merge(parent: Document, child: Document) -> tuple[Document, list[Diagnostic]]:
    """The child's statements over the parent's.

    Blocks merge key by key; an array marked ``x-key`` in the schema merges item
    by item on that key (a child's ``bonus globetrotter`` adds a bonus, its
    ``bonus longest_path`` re-prices one, ``without bonus longest_path`` drops
    one); any other value or array is replaced whole. Spans follow their items.
    """
    merger = _Merger(parent, child)
    data = merger.values(parent.data, child.data, schema(), ())
    data.pop("without", None)  # applied here, once
    merged = Document(
        source=child.source, data=data, spans=merger.spans, removed=parent.removed | frozenset(merger.removed)
    )
    return merged, merger.diagnostics


class _Merger:
    def __init__(self, parent: Document, child: Document):
        self.parent, self.child = parent, child
        self.removed: set[tuple[str, str]] = set()
        self.diagnostics: list[Diagnostic] = []
        replaced = [path for path in child.spans if not isinstance(_get(child.data, path), dict)]
        self.spans = {
            path: span
            for path, span in parent.spans.items()
            if not any(path[: len(prefix)] == prefix and len(path) > len(prefix) for prefix in replaced)
        }
        self.spans.update({path: span for path, span in child.spans.items() if not self._in_keyed(path)})
        self.origins: dict[JsonPath, list[tuple[Document, int]]] = {}

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
        if isinstance(parent, dict) and isinstance(child, dict):
            properties = node.get("properties", {})
            merged = dict(parent)
            for key, value in child.items():
                sub = properties.get(key)
                if key in parent and "x-key" in (resolve_ref(sub) or {}):
                    merged[key] = self.keyed_list(
                        parent[key], value, resolve_ref(sub)["x-key"], path + (key,)
                    )
                elif key in parent:
                    merged[key] = self.values(parent[key], value, sub, path + (key,))
                else:
                    merged[key] = value
                    if "x-key" in (resolve_ref(sub) or {}):
                        self.relocate(path + (key,), [(self.child, index) for index in range(len(value))])
            for without_index, dropped in enumerate(child.get("without", []) if not path else []):
                self.drop(merged, dropped, ("without", without_index))
            return merged
        return child

    def keyed_list(self, parent: list, child: list, key: str, path: JsonPath) -> list:
        """Parent items in place (replaced by a child item of the same key), then new child items."""
        merged = list(parent)
        origins: list[tuple[Document, int]] = [(self.parent, index) for index in range(len(parent))]
        position = {item.get(key): index for index, item in enumerate(parent)}
        for index, item in enumerate(child):
            if item.get(key) in position:
                merged[position[item[key]]] = item
                origins[position[item[key]]] = (self.child, index)
            else:
                merged.append(item)
                origins.append((self.child, index))
        self.relocate(path, origins)
        self.origins[path] = origins
        return merged

    def relocate(self, path: JsonPath, origins: list[tuple[Document, int]]) -> None:
        depth = len(path)
        self.spans = {p: s for p, s in self.spans.items() if not (p[:depth] == path and len(p) > depth)}
        for new_index, (document, old_index) in enumerate(origins):
            for p, span in document.spans.items():
                if p[:depth] == path and len(p) > depth and p[depth] == old_index:
                    self.spans[path + (new_index,) + p[depth + 1 :]] = span

    def drop(self, merged: dict, dropped: dict, where: JsonPath) -> None:
        kind, name = dropped.get("kind"), dropped.get("id")
        items = merged.get(kind, [])
        if not isinstance(name, str) or not isinstance(items, list):
            return  # not a keyed list: the schema has reported the statement
        keep = [
            index for index, item in enumerate(items) if not isinstance(item, dict) or item.get("id") != name
        ]
        if len(keep) == len(items):
            known = [str(item.get("id")) for item in items if isinstance(item, dict)]
            self.diagnostics.append(
                Diagnostic(
                    code=Code.UNKNOWN_REFERENCE,
                    message=f"aucun {kind} « {name} » à retirer",
                    span=self.child.span(where + ("id",)),
                    hint=did_you_mean(name, known),
                )
            )
            return
        owner = self.child if kind in self.child.data and kind not in self.parent.data else self.parent
        before = self.origins.get((kind,), [(owner, index) for index in range(len(items))])
        origins = [before[index] for index in keep]
        merged[kind] = [items[index] for index in keep]
        self.relocate((kind,), origins)
        self.removed.add((kind, name))


def _get(data: Any, path: JsonPath) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data
