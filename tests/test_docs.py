"""The documentation stays a newcomer's README plus reference pages: the README stays
short, and every relative link in it and in ``docs/*.md`` (files, images, and the
headings a ``#place`` names) points to something that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]
#: The README is a newcomer's page: what the app is, screenshots, two commands, links.
README_LIMIT = 15_000
#: Markdown links and images ``[text](target)``, and HTML ``src``/``href`` attributes.
LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a document's headings (lower case, punctuation dropped,
    spaces to hyphens, repeats numbered).

    >>> sorted(anchors("# Lucky's Misadventures\\n## Interpretations\\n## Interpretations"))
    ['interpretations', 'interpretations-1', 'luckys-misadventures']
    """
    seen: dict[str, int] = {}
    found: set[str] = set()
    for title in HEADING.findall(FENCE.sub("", markdown)):
        text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", title).lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def relative_links(markdown: str) -> list[str]:
    """The links of a document that point into the repository (not code samples)."""
    links = [a or b for a, b in LINK.findall(FENCE.sub("", markdown))]
    return [link for link in links if not re.match(r"[a-z][a-z0-9+.-]*:|//", link)]


def test_the_readme_stays_a_short_newcomers_page() -> None:
    size = len(README.read_bytes())
    assert size < README_LIMIT, f"README.md is {size} bytes: move details to docs/"
    text = README.read_text()
    for command in ("./run", "./test"):  # .ci/run calls the README's test command
        assert f"```sh\n{command}\n```" in text


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_points_to_something_that_exists(document: Path) -> None:
    failures = []
    links = relative_links(document.read_text())
    for link in links:
        path, _, place = link.partition("#")
        target = (document.parent / path).resolve() if path else document
        if not target.exists():
            failures.append(f"{link}: no such file")
        elif place and target.suffix == ".md" and place not in anchors(target.read_text()):
            failures.append(f"{link}: no heading #{place} in {target.name}")
    assert not failures, f"{document.name}:\n" + "\n".join(failures)


def test_the_readme_shows_every_game_and_links_every_document() -> None:
    links = relative_links(README.read_text())
    for slug in GAMES:
        assert f"docs/screenshots/{slug}.png" in links, f"no screenshot of {slug}"
    for document in DOCUMENTS[1:]:
        assert str(document.relative_to(ROOT)) in links, f"README does not link {document}"
