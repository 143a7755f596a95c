"""The emitters: the engine, the rule sheet, the differences page, the board picture
and the printable document, each from the IR."""
