"""The docs ship inside the package: a wheel carries docs/*.md as pnp/data/docs/, where
`pnp docs` reads them (pnp/designer/docs.py). The docs stay in docs/, where the README and the
tests link to them; this build step copies them. Everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DOCS = Path(__file__).resolve().parent / "docs"


class BuildPyWithDocs(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads docs/ itself
            return
        target = Path(self.build_lib) / "pnp" / "data" / "docs"
        self.mkpath(str(target))
        for doc in sorted(DOCS.glob("*.md")):
            self.copy_file(str(doc), str(target / doc.name))


setup(cmdclass={"build_py": BuildPyWithDocs})
