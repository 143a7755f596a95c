"""Maps the checkout's top-level folders into the one installed package ``aventuriers``.

pyproject.toml holds the metadata; only the package layout needs code, because
the edition packages under ``generated/`` come and go with the specs.
"""

from setuptools import find_packages, setup

# Folder in the checkout -> its name under ``aventuriers``.
CODE = ("compiler", "generated", "play")
DATA = {
    "editions": ["*.aventuriers", "*.md"],
    "spec": ["*.lark", "*.json", "*.md"],
}

packages: list[str] = []
package_dir: dict[str, str] = {}
for top in CODE:
    for name in find_packages(include=[top, f"{top}.*"]):
        packages.append(f"aventuriers.{name}")
        package_dir[f"aventuriers.{name}"] = name.replace(".", "/")
for folder in DATA:
    packages.append(f"aventuriers.{folder}")
    package_dir[f"aventuriers.{folder}"] = folder

# The package's own __init__ (`aventuriers.env`) lives with what plays the engines.
packages.append("aventuriers")
package_dir["aventuriers"] = "play/root"
packages.remove("aventuriers.play.root")
del package_dir["aventuriers.play.root"]

package_data = {f"aventuriers.{folder}": patterns for folder, patterns in DATA.items()}
# The PEP 561 marker: type checkers read the engines' annotations (their TypedDicts) from the wheel.
package_data["aventuriers"] = ["py.typed"]
package_data["aventuriers.compiler.emit"] = [
    "templates/*.j2",
    "templates/engine/*.j2",
    "templates/native/*.j2",
]
package_data["aventuriers.generated"] = [
    "schema.json",
    "*/fiche.md",
    "*/plateau.svg",
    "*/engine_core.pyx",
    "*/edition.json",
]
package_data["aventuriers.play"] = ["web/*.j2", "web/static/*"]
# Each mechanism's schema fragment, engine parts and native engine parts (its fixtures are
# tests, not shipped).
for name in packages:
    if name.startswith("aventuriers.compiler.mechanisms."):
        package_data[name] = ["schema.json", "engine/*.j2", "native/*.j2"]

setup(packages=sorted(packages), package_dir=package_dir, package_data=package_data)
