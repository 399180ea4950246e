"""A page read with the standard library's HTML parser: its ids, its links (``href``
and ``hx-get``), its contents' links and its sections (the help pages' tests and the
hosting pages')."""

from __future__ import annotations

from html.parser import HTMLParser

from flask.testing import FlaskClient


class Page(HTMLParser):
    """The ids, the links (``href`` and ``hx-get``), the contents' links and the h2
    sections of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        #: The addresses htmx asks for (``hx-get``): they answer htmx requests.
        self.fragments: list[str] = []
        self.contents: list[str] = []
        self.sections: list[str] = []
        self.h1 = 0
        self._in_contents = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if "id" in found:
            self.ids.add(found["id"])
        if tag == "h1":
            self.h1 += 1
        if tag == "nav" and "help-contents" in found.get("class", ""):
            self._in_contents = True
        if tag == "section" and "help-section" in found.get("class", ""):
            self.sections.append(found["id"])
        for name in ("href", "hx-get"):
            if name in found:
                self.links.append(found[name])
                if name == "hx-get":
                    self.fragments.append(found[name])
                if self._in_contents and tag == "a":
                    self.contents.append(found[name])

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_contents = False


def parse(client: FlaskClient, url: str) -> tuple[Page, str]:
    """A page's parsed links and ids, and its text; it must answer 200."""
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.get_data(as_text=True)
    response.close()
    page = Page()
    page.feed(body)
    return page, body
