"""Backups from the command line: ``flask --app companion export`` and ``import``; and
``photos tidy``, which finds the photo files no database row names.

``export`` writes every group and every table that belongs to none (or one group or
table, by its link) as JSON or CSV, with a progress bar over the tables. ``import``
recreates a JSON export with fresh links and prints them: an imported table or group is
reachable only through those.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from companion.services import groups, photos, tables, transfer


@click.command("export")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--format", "kind", type=click.Choice(["json", "csv"]), default="json")
@click.option("--group", "group_token", help="Only this group (its edit or read-only token).")
@click.option("--table", "table_token", help="Only this table (its edit or read-only token).")
@with_appcontext
def export_command(
    output: Path, kind: str, group_token: str | None, table_token: str | None
) -> None:
    """Export everything (or one group or table) as JSON or CSV."""
    document = _export(group_token, table_token)
    text = transfer.to_csv(document) if kind == "csv" else json.dumps(document, ensure_ascii=False)
    output.write_text(text, encoding="utf-8")
    click.echo(f"Wrote {output}.")


def _export(group_token: str | None, table_token: str | None) -> dict[str, Any]:
    if group_token:
        found_group = groups.find(group_token)
        if found_group is None:
            raise click.BadParameter("No group has this link.", param_hint="--group")
        with click.progressbar(length=len(found_group.group.tables), label="Tables") as bar:
            return transfer.export_group(found_group.group, bar.update, complete=True)
    if table_token:
        found_table = tables.find(table_token)
        if found_table is None:
            raise click.BadParameter("No table has this link.", param_hint="--table")
        return transfer.export_table(found_table.table, complete=True)
    with click.progressbar(length=transfer.everything_count(), label="Tables") as bar:
        return transfer.export_everything(bar.update)


@click.command("import")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def import_command(source: Path) -> None:
    """Recreate a JSON export; prints the new edit links (the old ones do not carry over).

    The whole file is checked first with the rules of the pages and the API; any problem
    refuses all of it (one line each, nothing stored). Each table is then written in a
    short transaction of its own, so live tables keep working during a restore.
    """
    try:
        document = json.loads(source.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise click.ClickException(f"{source} is not JSON: {error}") from None
    except RecursionError:
        raise click.ClickException(f"{source} nests too deeply to be an export.") from None
    try:
        transfer.check_document(document)
        with click.progressbar(length=_tables_in(document), label="Tables") as bar:
            created = transfer.import_document(document, bar.update)
    except transfer.ImportRefused as refused:
        for line in refused.lines:
            click.echo(f"Error: {line}", err=True)
        raise click.ClickException(
            f"Nothing was imported ({len(refused.lines)} problems)."
            if len(refused.lines) > 1
            else "Nothing was imported."
        ) from None
    for kind, token in created:
        prefix = "/g/" if kind == "group" else "/t/"
        click.echo(f"{kind}: {prefix}{token}")


def _tables_in(document: Any) -> int:
    """How many tables an export holds (for the progress bar; 0 when unknown)."""
    if not isinstance(document, dict):
        return 0
    found = [document.get("group"), *_listed(document.get("groups"))]
    count = sum(len(_listed(g.get("tables"))) for g in found if isinstance(g, dict))
    count += len(_listed(document.get("tables"))) + (1 if "table" in document else 0)
    return count


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


@click.group("photos")
def photos_commands() -> None:
    """The photos' files in the photo storage."""


@photos_commands.command("tidy")
@click.option("--remove", is_flag=True, help="Remove the files listed (else only list them).")
@with_appcontext
def tidy_command(remove: bool) -> None:
    """List the photo files that no photo of the database names (a database restored from
    an older copy, rows deleted by hand); ``--remove`` takes them away."""
    unnamed = photos.unnamed_files()
    for uid in unnamed:
        click.echo(uid)
    if remove:
        photos.remove_files(unnamed)
        click.echo(f"Removed {len(unnamed)} photos' files.")
    else:
        click.echo(f"{len(unnamed)} photos' files are named by no photo (--remove removes them).")


def register(app: Flask) -> None:
    """Add the commands to ``flask --app companion``."""
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(photos_commands)
