"""The web layer: HTML pages with htmx fragments, the JSON API, errors and headers."""
