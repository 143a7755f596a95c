"""The aventuriers rules compiler: spec files in, engines and French rule sheets out.

Installed as ``aventuriers.compiler``; in a checkout it is also importable as
``compiler``. Modules import each other relatively, so both names work.
"""
