"""JSON Schemas of the API's answers, for the OpenAPI description of ``/api/v1``.

Requests are described by the pydantic models the handlers validate with; answers are
built as plain dicts, so their shapes are written here by hand, following the contract
(API.md). Every object allows more fields than it lists: the contract lets fields be
added, never renamed or dropped, so a schema names what must be there and its type.

>>> obj({"legal": BOOLEAN}, nullable={"map": STRINGS})["required"]
['legal', 'map']
>>> obj({}, nullable={"vp": INTEGER})["properties"]
{'vp': {'anyOf': [{'type': 'integer'}, {'type': 'null'}]}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: A JSON Schema, as a plain JSON-like mapping.
Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
#: A sentence for people: never empty.
SENTENCE: Schema = {"type": "string", "minLength": 1}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}
STRINGS: Schema = {"type": "array", "items": STRING}
INTEGERS: Schema = {"type": "array", "items": INTEGER}
#: A ``[row, col]`` position, or any pair of whole numbers (a shift).
PAIR: Schema = {"type": "array", "items": INTEGER, "minItems": 2, "maxItems": 2}
#: An object keyed by player name (or another name) with whole-number values.
COUNTS: Schema = {"type": "object", "additionalProperties": INTEGER}
#: An object whose contents the contract leaves open.
ANY_OBJECT: Schema = {"type": "object"}


def _or_null(schema: Schema) -> Schema:
    """``schema`` or ``null``."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema) -> Schema:
    """A list of ``items``."""
    return {"type": "array", "items": items}


def obj(
    required: Mapping[str, Schema],
    optional: Mapping[str, Schema] | None = None,
    *,
    nullable: Mapping[str, Schema] | None = None,
) -> Schema:
    """An object with ``required`` fields, ``nullable`` ones (present, maybe ``null``) and
    ``optional`` ones (maybe absent); further fields are allowed."""
    properties = {
        **required,
        **{k: {"anyOf": [v, {"type": "null"}]} for k, v in (nullable or {}).items()},
    }
    return {
        "type": "object",
        "required": list(properties),
        "properties": {**properties, **(optional or {})},
    }


#: One problem of a referee check (also inside a 422): where, and what is wrong.
PROBLEM: Schema = obj({"path": STRING, "message": SENTENCE})
#: One of the app's readings an answer applied (:class:`companion.games.readings.Reading`).
READING: Schema = obj({"id": STRING, "text": SENTENCE, "rule": STRING})
#: The optional ``readings`` of an answer (present only when the answer applied some).
READINGS: Schema = {"type": "array", "items": READING, "minItems": 1}
PROBLEMS: Schema = array(PROBLEM)
#: A label and points (a breakdown line, a line of Buy Points).
LINE: Schema = obj({"label": STRING, "points": INTEGER})

STANDING: Schema = obj(
    {
        "player": STRING,
        "score": INTEGER,
        "rank": {"type": "integer", "minimum": 1},
        "winner": BOOLEAN,
        "breakdown": array(LINE),
        "tiebreak": array(obj({"label": STRING, "value": {"anyOf": [INTEGER, INTEGERS]}})),
    }
)


def result(game: str, extra: Mapping[str, Schema] | None = None) -> Schema:
    """The answer of a score request of ``game`` (API.md, "The result of a score
    request"), with the game's ``extra`` top-level fields."""
    return obj(
        {
            "game": {"const": game},
            "standings": array(STANDING),
            "winners": STRINGS,
            "decided_by": STRING,
            "finished": BOOLEAN,
            "warnings": array(SENTENCE),
            **(extra or {}),
        },
        # The app's readings the verdict rests on (present only when there are some).
        {"readings": READINGS},
    )
