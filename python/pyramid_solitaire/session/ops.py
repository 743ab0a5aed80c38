"""Protocol 2's ops, each declared once: its fields (what each takes, which are required,
which go apart), what it does and what its answer holds. The server reads every request
through :meth:`~.fields.Op.read` and the published schema (:func:`schema`,
``pyramid-solitaire serve --schema``, ``protocol2.schema.json``) is built from the same
table, so a request the schema accepts is one the server reads, and an unknown field is
refused by both.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

from ..inputs.jsonout import SAFE_INTEGER
from ..model import options as _options
from ..model.profiles import Profile
from ..model.reasons import REASONS
from ..model.rules import Rules
from .difficulty import CHOICES
from .events import TYPES as EVENT_TYPES
from .fields import (
    Any_,
    Bool,
    Const,
    Enum,
    Field,
    FieldError,
    Int,
    List,
    Num,
    Obj,
    OneOf,
    Op,
    Ref,
    Str,
)
from .messages import CATALOGUE, LANGUAGES

VERSION = 2
#: the versions a server speaks; ``hello``'s ``protocol`` chooses one
VERSIONS = (1, 2)
MAX_GAMES = 256
MAX_BATCH = 1000
MAX_MOVES = 10_000  # moves given with a game: far more than any game has

TARGETS = ("stock", "stock:top", "waste", "waste:0", "waste:1", "waste:2")
GAME_ID = Str(
    64, r"[A-Za-z0-9_-]+", words="a game id: 1 to 64 of A-Z a-z 0-9 _ -",
    description="the game's id: the server's (g1, g2, ...) or the client's own from new",
)  # fmt: skip
TARGET = OneOf(
    [Int(0, 27), Enum(TARGETS)],
    words="a pyramid index 0..27, 'stock', 'stock:top', 'waste' or 'waste:0'..'waste:2'",
)
LANG = Enum(LANGUAGES)
PROFILE = Enum(Profile.names())
MOVE = Str(40, words="a move such as 'Kd', 'Tc+3s', 'draw' or 'recycle'")
DATE = Str(10, r"[0-9]{4}-[0-9]{2}-[0-9]{2}", words="a date YYYY-MM-DD")
SEED = Int(0, SAFE_INTEGER, words="0 .. 2^53 - 1")
WITH_STATE = Bool(
    description="answer with the whole state too (new, import, load and state always do)"
)


def _rules(value: Any, name: str) -> Rules:
    try:
        return Rules.from_dict(value)
    except ValueError as e:
        raise FieldError(f"{name}: {e}", name) from None


RULES = Ref(
    "rules_options",
    _rules,
    words="an object of rule options",
    description="custom rules: a base preset (preset) and the options changed on it",
)
SETTINGS = Obj(
    {
        "undo_limit": OneOf([Int(0, 1 << 20), Const(None)], words="a whole number or null"),
        "explain_errors": Bool(description="a tap on a blocked card says why"),
        "no_chance_notice": Bool(description="after each move, say when the game is lost"),
        "notice_seconds": Num(0.001, 10.0, description="the solver's time for that notice"),
        "show_redeals": Bool(),
    },
    description="the game's settings, changed from its profile's",
)
RANDOM = OneOf(
    [
        Const(True),
        Obj(
            {
                "seed": SEED,
                "winnable_only": Bool(),
                "difficulty": Enum(list(CHOICES)),
            }
        ),
    ],
    words='true or an object such as {"winnable_only": true, "seed": 3}',
)
POSITION = Obj(
    {
        "code": Str(64, words="a deal code"),
        "cards": Str(400, words="52 cards"),
        "profile": PROFILE,
        "rules": RULES,
        "moves": List(MOVE, MAX_MOVES),
    },
    one_of=(("code", "cards"),),
    description="a position: a deal (code, or cards with profile or rules) and the moves played",
)
QUERIES = ("winnable", "shortest", "winning_moves", "max_removed", "fair_move", "chance")
BUDGET = Obj(
    {
        "positions": Int(1, 10**12, description="positions searched, at most (each search)"),
        "seconds": Num(0.001, 3600.0, description="seconds, at most, for each position"),
    },
    description="how much each position's analysis may spend; when it runs out the answers "
    "it could not give are null and stopped_by says why",
)

# ---- answers (for the schema and docs) ------------------------------------------------------
_STATE = {"$ref": "#/$defs/state"}
_EVENTS = {"type": "array", "items": {"$ref": "#/$defs/event"}}


def _game_op(name: str, doc: str, **fields: Field) -> Op:
    return Op(
        name,
        doc,
        {"game": GAME_ID, **fields, "state": WITH_STATE},
        ("game", *(k for k in fields if k not in ("state",))),
        scope="game",
        answer={"game": {"type": "string"}, "events": _EVENTS, "state": _STATE},
    )


OPS: dict[str, Op] = {
    op.name: op
    for op in [
        Op(
            "hello",
            "the versions, the ops, the profiles, languages, labels and capabilities; "
            "protocol chooses the version spoken from then on (default 1)",
            {"protocol": Enum(VERSIONS)},
            answer={
                "protocol": {"enum": list(VERSIONS)},
                "protocols": {"type": "array"},
                "version": {"type": "string"},
                "ops": {"type": "array", "items": {"type": "string"}},
                "profiles": {"type": "array"},
                "languages": {"type": "array"},
                "game_names": {"type": "object"},
                "labels": {"type": "object"},
                "difficulties": {"type": "object"},
                "capabilities": {"type": "array", "items": {"type": "string"}},
                "limits": {"type": "object"},
            },
        ),
        Op(
            "new",
            "starts a game (its id: game, or the server's next); one of code, cards, random, "
            "daily; moves are played on it first; check reads the deal only",
            {
                "game": GAME_ID,
                "code": Str(64, words="a deal code such as PY1-N-AAAAAAS"),
                "cards": Str(400, words="52 cards, space-separated"),
                "random": RANDOM,
                "daily": OneOf([Const(True), DATE], words="true or a date YYYY-MM-DD"),
                "profile": PROFILE,
                "rules": RULES,
                "settings": SETTINGS,
                "moves": List(MOVE, MAX_MOVES),
                "lang": LANG,
                "check": Bool(description="read the deal only: the answer's checked"),
                "record": Bool(description="record the game in the server's statistics"),
                "state": WITH_STATE,
            },
            one_of=(("code", "cards", "random", "daily"),),
            scope="creates",
            answer={
                "game": {"type": "string"},
                "events": _EVENTS,
                "state": _STATE,
                "checked": {"type": "object"},
            },
        ),
        Op(
            "import",
            "a game from its save document (export's, or a save file's): checked, then "
            "continued under the id game (or the server's next)",
            {"game": GAME_ID, "save": Any_(), "record": Bool(), "state": WITH_STATE},
            ("save",),
            scope="creates",
            answer={"game": {"type": "string"}, "events": _EVENTS, "state": _STATE},
        ),
        Op(
            "export",
            "the game's save document (what import takes back), and its shareable form",
            {"game": GAME_ID},
            ("game",),
            scope="game",
            answer={
                "game": {"type": "string"},
                "save": {"type": "object"},
                "share": {"type": "object"},
            },
        ),
        Op("close", "forgets the game", {"game": GAME_ID}, ("game",), scope="game"),
        Op(
            "games",
            "the games open: each game's id, code, profile, status and moves",
            answer={"games": {"type": "array"}},
        ),
        _game_op("tap", "a tap on a target (the tap model of docs/session.md)", target=TARGET),
        _game_op(
            "drag",
            "a tap on from, then on to (both checked first)",
            **{"from": TARGET, "to": TARGET},
        ),
        _game_op("play", "plays a move", move=MOVE),
        _game_op("undo", "takes back the last action (its events reversed)"),
        _game_op("redo", "plays again the last action undone"),
        _game_op("hint", "a move to play (message hint)"),
        _game_op("chance", "the chance to win from what the player has seen"),
        _game_op("pause", "stops the clock"),
        _game_op("resume", "starts the clock again"),
        _game_op("restart", "the same deal from the start"),
        _game_op("finish", "plays the rest when it needs no choice (the state's can_finish)"),
        Op(
            "state",
            "the game's whole state",
            {"game": GAME_ID},
            ("game",),
            scope="game",
            answer={"game": {"type": "string"}, "state": _STATE},
        ),
        _game_op("fair_hints", "hints that never look at the face-down stock", on=Bool()),
        _game_op("lang", "the language of the game's messages from now on", lang=LANG),
        Op(
            "save",
            "saves the game to a file of the server's (where files are allowed)",
            {"game": GAME_ID, "path": Str(4096, words="a file name")},
            ("game", "path"),
            scope="game",
        ),
        Op(
            "load",
            "a game from a save file of the server's (where files are allowed)",
            {"game": GAME_ID, "path": Str(4096, words="a file name"), "state": WITH_STATE},
            ("path",),
            scope="creates",
            answer={"game": {"type": "string"}, "events": _EVENTS, "state": _STATE},
        ),
        Op(
            "analyze",
            "answers queries about a game of the client's (game) or positions (position, or "
            "positions: a batch, each answered as it is done), within a budget; progress "
            "(seconds) asks for progress lines; cancel stops it",
            {
                "game": GAME_ID,
                "position": POSITION,
                "positions": List(POSITION, MAX_BATCH, 1),
                "queries": List(Enum(QUERIES), len(QUERIES), 1),
                "budget": BUDGET,
                "progress": Num(0.05, 3600.0, description="seconds between progress lines"),
                "samples": Int(1, 4096, description="completions for fair_move and chance"),
            },
            one_of=(("game", "position", "positions"),),
            scope="analysis",
            answer={
                "result": {"$ref": "#/$defs/analysis"},
                "index": {"type": "integer"},
                "partial": {"type": "boolean"},
                "done": {"type": "integer"},
                "progress": {"type": "object"},
            },
        ),
        Op(
            "cancel",
            "stops a running request (its answer: error cancelled); cancelled says whether "
            "one was running",
            {"request": Ref("id", words="a request id")},
            ("request",),
            answer={"cancelled": {"type": "boolean"}},
        ),
        Op(
            "stats",
            "the statistics (of a profile, a deal)",
            {
                "profile": PROFILE,
                "deal": Str(400, words="a deal code or card list"),
                "limit": Int(1, 1000),
                "lang": LANG,
            },
            answer={"stats": {"$ref": "#/$defs/stats"}},
            scope="store",
        ),
        Op(
            "stats_reset",
            "deletes the games recorded: of a profile, or all",
            {"profile": PROFILE, "all": Const(True)},
            one_of=(("profile", "all"),),
            answer={"deleted": {"type": "integer"}, "stats": {"$ref": "#/$defs/stats"}},
            scope="store",
        ),
        Op(
            "howto",
            "the rules page of a game type",
            {"profile": PROFILE, "lang": LANG},
            answer={"howto": {"type": "object"}},
        ),
        Op(
            "daily",
            "the daily deal of a game type on a date (default: today by the server's clock), "
            "without starting it",
            {"profile": PROFILE, "date": DATE},
            answer={"daily": {"type": "object"}},
        ),
        Op("quit", "answers once the requests running have ended, then the server stops"),
    ]
}

ERRORS = {
    "bad_json": "the line is not JSON",
    "bad_request": "a field that is not what it should be (field names it), an unknown field",
    "missing_field": "a required field is missing (field names it)",
    "unknown_op": "an op this server does not answer",
    "unknown_game": "no open game has this id",
    "game_exists": "new or import named a game id already open",
    "too_many_games": f"{MAX_GAMES} games are open already: close one",
    "bad_save": "a save document that cannot be read (field names the part)",
    "too_long": "a line over 65,536 bytes",
    "io_error": "a file of the server's cannot be read or written",
    "not_allowed": "this server keeps no files for its clients (save, load)",
    "cancelled": "the request was stopped by cancel (or quit)",
    "duplicate_id": "a request with this id is still running",
    "rate_limited": "too many requests a second on one connection (the browser game's server)",
    "internal_error": "a defect of the server: the request could not be answered",
}

#: what hello's capabilities mean
CAPABILITIES = {
    "events": "answers carry the events of each change (docs/protocol.md, Events)",
    "games": "many games at once, each with an id",
    "import_export": "save documents go both ways (import, export)",
    "analyze": "analysis queries with budgets, progress and batches",
    "cancel": "a running request can be stopped",
    "custom_rules": "new takes rules (options on a preset) and settings",
    "stats": "statistics (and record: a game's own)",
    "daily": "the daily deal (new daily, and the daily op)",
    "difficulty": "random.difficulty",
    "files": "save and load of the server's files",
}


def message_args() -> dict[str, list[str]]:
    """Each message code's arguments: those its texts name, and the extra ones given."""
    extra = {
        "difficulty": ["level", "label"],
        "hint": ["move", "card", "a", "b", "win_in", "fair"],
        "chance": ["low", "high", "samples"],
        "daily": ["date"],
        "not_allowed": ["reason"],
        "illegal_move": ["reason"],
    }
    out: dict[str, list[str]] = {}
    for code, texts in CATALOGUE.items():
        words = {f"game_{p}" for p in Profile.names()} | {"card_list"}
        if code in words or code.startswith(("difficulty_", "hint_")):
            continue  # (words a message is made of, never a message of its own)
        names: list[str] = []
        for text in texts.values():
            names += [f for _, f, _, _ in string.Formatter().parse(text) if f and f not in names]
        out[code] = sorted(set(names) | set(extra.get(code, [])))
    return out


def _rules_options_schema() -> dict[str, Any]:
    props: dict[str, Any] = {"preset": {"enum": Rules.preset_names()}}
    props.update({opt.name: _options.value_schema(opt) for opt in _options.OPTIONS})
    return {
        "type": "object",
        "description": "rule options over a base preset (default pyramide): docs/rules.md",
        "properties": props,
        "additionalProperties": False,
    }


def _v1() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("protocol.schema.json").read_text("utf-8")
    return dict(json.loads(text))


@cache
def schema() -> dict[str, Any]:
    """Protocol 2's JSON Schema: a request is one of ``$defs/request``'s ops; a response
    (and a progress line) validates against the whole schema."""
    v1 = _v1()["$defs"]
    defs: dict[str, Any] = {
        k: v1[k] for k in ("target", "card", "state", "rules", "stats", "game_row", "best_of")
    }
    defs["id"] = {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": 256},
            {"type": "integer", "minimum": -SAFE_INTEGER, "maximum": SAFE_INTEGER},
        ]
    }
    defs["rules_options"] = _rules_options_schema()
    args = message_args()
    defs["message"] = {
        "type": "object",
        "required": ["code", "text"],
        "properties": {
            "code": {"enum": sorted(args)},
            "text": {"type": "string"},
            "args": {"type": "object"},
        },
        "additionalProperties": False,
        # each code's args, and no other (docs/protocol.md's table of messages)
        "allOf": [
            {
                "if": {"properties": {"code": {"const": code}}},
                "then": {
                    "properties": {
                        "args": {
                            "type": "object",
                            "properties": dict.fromkeys(names, {}),
                            "additionalProperties": False,
                        }
                    }
                },
            }
            for code, names in sorted(args.items())
        ],
    }
    defs["event"] = {
        "oneOf": [
            {
                "type": "object",
                "required": ["type", *fields],
                "properties": {"type": {"const": kind}, **dict.fromkeys(fields, {})},
                "additionalProperties": False,
            }
            for kind, fields in EVENT_TYPES.items()
        ]
    }
    defs["analysis"] = {
        "type": "object",
        "properties": {
            "winnable": {"type": ["boolean", "null"]},
            "shortest": {"type": ["object", "null"]},
            "winning_moves": {"type": ["array", "null"]},
            "max_removed": {"type": ["object", "null"]},
            "fair_move": {"type": ["string", "null"]},
            "chance": {"type": ["object", "null"]},
            "positions": {"type": "integer"},
            "seconds": {"type": "number"},
            "stopped_by": {"enum": [None, "nodes", "time", "memory"]},
        },
        "additionalProperties": False,
    }
    defs["request"] = {"oneOf": [op.request_schema({"$ref": "#/$defs/id"}) for op in OPS.values()]}
    answers: dict[str, Any] = {}
    for op in OPS.values():
        for k, v in op.answer.items():
            answers.setdefault(k, v)
    defs["error"] = {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"enum": sorted(ERRORS)},
            "message": {"type": "string"},
            "field": {"type": "string"},
            "reason": {"enum": sorted(REASONS)},
            "text": {"type": "string"},
        },
        "additionalProperties": False,
    }
    defs["response"] = {
        "type": "object",
        "required": ["id", "ok", "messages"],
        "properties": {
            "id": {"oneOf": [{"$ref": "#/$defs/id"}, {"type": "null"}]},
            "ok": {"type": "boolean"},
            "op": {"enum": sorted(OPS)},
            "messages": {"type": "array", "items": {"$ref": "#/$defs/message"}},
            "error": {"$ref": "#/$defs/error"},
            **answers,
        },
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "pyramid-solitaire/protocol/2",
        "title": "pyramid-solitaire JSON-lines protocol, version 2",
        "description": "A response validates against this schema; a request against "
        "$defs/request. docs/protocol.md says what each op, event, message and error means.",
        "$defs": defs,
        "$ref": "#/$defs/response",
    }


def schema_text(version: int = VERSION) -> str:
    """The schema of a protocol version as ``serve --schema`` prints it."""
    if version == 1:
        return json.dumps(_v1(), indent=2, ensure_ascii=False)
    return json.dumps(schema(), indent=2, ensure_ascii=False)
