"""The front end: source positions, parsing, lowering to a document with spans,
validation against the schema, inheritance (merge, edits) and semantic checks."""
