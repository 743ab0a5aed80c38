"""What a change did to the table, as events a frontend animates (protocol 2's ``events``),
so that no client has to compare whole states.

A *table* (:func:`table`, or :func:`project` of a protocol state) is what a player sees: the
pyramid's 28 places, which are free, the stock's count and its face-up top card (where it is
playable), the waste piles, the top of the removed cards (the foundation), the score, the
moves counter, the status, the redeals left, the selection and whether the clock is paused.
:func:`apply_events` turns a table into the next one from the events alone; the tests hold
``apply_events(project(before), events) == project(after)`` for every response.

Places are the tap targets' names: a pyramid index 0..27, ``"stock"``, ``"waste"`` (draw
one: one pile) or ``"waste:0"``..``"waste:2"`` (draw three), and ``"foundation"`` (the
removed cards). The events of a move come in this order: the action (``king``, ``pair``,
``draw``, ``recycle``; ``undo`` or ``redo`` with the move's text), ``hide`` (the stock's top
turned face down again), the cards' ``move``\\s, ``turn`` (a card turned face up on the stock),
``free`` and ``blocked`` (pyramid places), ``foundation`` (its new top), ``score``,
``redeals`` and ``status``. docs/protocol.md lists each with its fields.

>>> from pyramid_solitaire.session.session import Session
>>> s = Session("PY1-N-AAAAAAS", "pyramide")
>>> s.events = []
>>> _ = s.play("draw")
>>> [e["type"] for e in s.events]
['draw', 'move']
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model.move import Move
    from .session import Session

Event = dict[str, Any]
Table = dict[str, Any]

#: Every event type: its fields, and what it means (docs/protocol.md's table is made of this).
EVENTS: dict[str, tuple[tuple[str, ...], str]] = {
    "king": (("card", "moves"), "a King removed (its move follows); moves: the counter after"),
    "pair": (("cards", "moves"), "a pair removed (its moves follow)"),
    "draw": (("moves",), "a draw (its cards' moves follow)"),
    "recycle": (("moves",), "the waste turned over into the stock (its cards' moves follow)"),
    "undo": (("move", "moves"), "the move taken back (the events that follow undo it)"),
    "redo": (("move", "moves"), "the move played again (the events that follow replay it)"),
    "hide": (("card", "at"), "the stock's face-up top card turned face down again"),
    "move": (
        ("card", "from", "to"),
        "a card moved: from and to are places (a pyramid index, stock, waste or "
        "waste:0..2, foundation)",
    ),
    "turn": (("card", "at"), "a card turned face up on the stock (its top, where playable)"),
    "free": (("targets",), "pyramid places whose cards became free"),
    "blocked": (("targets",), "pyramid places whose cards became covered again"),
    "foundation": (("top",), "the top of the removed cards (null: none)"),
    "score": (("points", "score"), "points won (or taken back: negative) and the score"),
    "redeals": (("left",), "the redeals left (null: unlimited)"),
    "status": (("status",), "the game's status: playing, won, no moves"),
    "select": (("target", "card"), "a card selected (the first of a pair)"),
    "deselect": ((), "the selection cleared"),
    "pause": ((), "the clock stopped"),
    "resume": ((), "the clock going again"),
    "deal": ((), "a new table (new, restart, import, load): read it from the answer's state"),
}
#: Each event type's fields.
TYPES: dict[str, tuple[str, ...]] = {kind: fields for kind, (fields, _) in EVENTS.items()}


def _pile_names(n: int) -> list[str]:
    return ["waste"] if n == 1 else [f"waste:{k}" for k in range(n)]


def table(session: Session) -> Table:
    """The table of a session now (what :func:`project` reads from its state, made directly:
    a few microseconds)."""
    game = session.game
    free_mask = game.free_mask
    pyramid = [None if c is None else c.token for c in game.pyramid]
    piles = game.waste_piles
    removed = game.removed
    stock = game.stock
    return {
        "pyramid": pyramid,
        "free": [i for i, c in enumerate(pyramid) if c is not None and (free_mask >> i) & 1],
        "stock": len(stock),
        "stock_top": stock[0].token if stock and game.rules.stock_top_playable else None,
        "waste": {
            name: [c.token for c in pile] for name, pile in zip(_pile_names(len(piles)), piles)
        },
        "foundation": removed[-1].token if removed else None,
        "score": session.score,
        "moves": session.moves,
        "status": str(session.status),
        "redeals_left": game.recycles_left,
        "selection": session.selection,
        "paused": session.paused,
        # not shown, but needed to tell a card that went to the stock from one removed:
        "_gone": {c.token for c in removed},
    }


def project(state: dict[str, Any]) -> Table:
    """The table of a protocol (or :meth:`Session.state`) state: what the events change."""
    piles = state["waste"]
    return {
        "pyramid": [p["card"] for p in state["pyramid"]],
        "free": [p["index"] for p in state["pyramid"] if p["free"]],
        "stock": state["stock"],
        "stock_top": state["stock_top"],
        "waste": {name: list(pile) for name, pile in zip(_pile_names(len(piles)), piles)},
        "foundation": state["foundation"],
        "score": state["score"],
        "moves": state["moves"],
        "status": state["status"],
        "redeals_left": state["redeals_left"],
        "selection": None if state["selection"] is None else state["selection"]["target"],
        "paused": state["paused"],
    }


def _places(t: Table) -> dict[str, Any]:
    """Each face-up card's place."""
    out: dict[str, Any] = {c: i for i, c in enumerate(t["pyramid"]) if c is not None}
    for name, pile in t["waste"].items():
        out.update(dict.fromkeys(pile, name))
    if t["stock_top"] is not None:
        out[t["stock_top"]] = "stock"
    return out


def _order(place: Any) -> tuple[int, int]:
    if isinstance(place, int):
        return (0, place)
    if place == "stock":
        return (1, 0)
    if place == "foundation":
        return (3, 0)
    return (2, int(place[6:]) if place.startswith("waste:") else 0)


def action_event(kind: str, move: Move, moves: int) -> Event:
    """The first event of a move played (``kind`` ``"play"``), undone or redone."""
    if kind in ("undo", "redo"):
        return {"type": kind, "move": str(move), "moves": moves}
    if move.kind == "king":
        return {"type": "king", "card": move.cards[0].token, "moves": moves}
    if move.kind == "pair":
        return {"type": "pair", "cards": [c.token for c in move.cards], "moves": moves}
    return {"type": move.kind, "moves": moves}


def table_events(before: Table, after: Table) -> list[Event]:
    """The events that take table ``before`` to ``after`` (both from :func:`table`), but the
    action event, the selection and the clock (:func:`request_events` adds those)."""
    was, now = _places(before), _places(after)
    hides: list[Event] = []
    moves: list[tuple[tuple[int, int], int, Event]] = []
    turns: list[Event] = []
    for card, place in was.items():
        if card in now:
            if now[card] != place:
                moves.append(
                    (
                        _order(now[card]),
                        len(moves),
                        {"type": "move", "card": card, "from": place, "to": now[card]},
                    )
                )
        elif card in after["_gone"]:
            moves.append(
                (
                    _order("foundation"),
                    len(moves),
                    {"type": "move", "card": card, "from": place, "to": "foundation"},
                )
            )
        elif place == "stock":  # the stock's top, face down again under a card put back
            hides.append({"type": "hide", "card": card, "at": "stock"})
        else:  # put back into the stock (a recycle, a draw undone)
            moves.append(
                (
                    _order("stock"),
                    -len(moves),
                    {"type": "move", "card": card, "from": place, "to": "stock"},
                )
            )
    for card, place in now.items():
        if card not in was:
            source = "foundation" if card in before["_gone"] else "stock"
            if not (source == "stock" and place == "stock"):  # (then only turned)
                moves.append(
                    (
                        _order(place),
                        len(moves),
                        {"type": "move", "card": card, "from": source, "to": place},
                    )
                )
        if place == "stock" and was.get(card) != "stock":
            turns.append({"type": "turn", "card": card, "at": "stock"})
    out = hides + [e for _, _, e in sorted(moves, key=lambda m: (m[0], m[1]))] + turns
    out += _field_events(before, after)
    return out


def _field_events(before: Table, after: Table) -> list[Event]:
    out: list[Event] = []
    pyramid = after["pyramid"]
    still = {i for i in before["free"] if pyramid[i] is not None}
    newly = [i for i in after["free"] if i not in still]
    lost = sorted(still - set(after["free"]))
    if newly:
        out.append({"type": "free", "targets": newly})
    if lost:
        out.append({"type": "blocked", "targets": lost})
    if before["foundation"] != after["foundation"]:
        out.append({"type": "foundation", "top": after["foundation"]})
    if before["score"] != after["score"]:
        out.append(
            {"type": "score", "points": after["score"] - before["score"], "score": after["score"]}
        )
    if before["redeals_left"] != after["redeals_left"]:
        out.append({"type": "redeals", "left": after["redeals_left"]})
    if before["status"] != after["status"]:
        out.append({"type": "status", "status": after["status"]})
    return out


def request_events(
    before: Table, after: Table, played: Sequence[Event], session: Session
) -> list[Event]:
    """A request's events: its moves' (``played``, in order), between the selection's and the
    clock's changes."""
    out: list[Event] = []
    if before["paused"] and not after["paused"]:
        out.append({"type": "resume"})
    if before["selection"] is not None and before["selection"] != after["selection"]:
        out.append({"type": "deselect"})
    out += played
    if after["selection"] is not None and before["selection"] != after["selection"]:
        card = session._card_at(after["selection"])
        out.append({"type": "select", "target": after["selection"], "card": card.token})
    if after["paused"] and not before["paused"]:
        out.append({"type": "pause"})
    return out


def apply_events(t: Table, events: Iterable[Event]) -> Table:
    """The table after ``events`` (a client's reference: what each event does)."""
    t = copy.deepcopy({k: v for k, v in t.items() if k != "_gone"})
    free = set(t["free"])
    for e in events:
        kind = e["type"]
        if kind in ("king", "pair", "draw", "recycle", "undo", "redo"):
            t["moves"] = e["moves"]
        elif kind == "move":
            card, source, dest = e["card"], e["from"], e["to"]
            if isinstance(source, int):
                assert t["pyramid"][source] == card, (e, t["pyramid"][source])
                t["pyramid"][source] = None
                free.discard(source)
            elif source == "stock":
                t["stock"] -= 1
                if t["stock_top"] == card:
                    t["stock_top"] = None
            elif source != "foundation":
                assert t["waste"][source][-1] == card, (e, t["waste"][source])
                t["waste"][source].pop()
            if isinstance(dest, int):
                t["pyramid"][dest] = card
            elif dest == "stock":
                t["stock"] += 1
            elif dest != "foundation":
                t["waste"][dest].append(card)
        elif kind == "turn":
            t["stock_top"] = e["card"]
        elif kind == "hide":
            t["stock_top"] = None
        elif kind == "free":
            free.update(e["targets"])
        elif kind == "blocked":
            free.difference_update(e["targets"])
        elif kind == "foundation":
            t["foundation"] = e["top"]
        elif kind == "score":
            t["score"] = e["score"]
        elif kind == "redeals":
            t["redeals_left"] = e["left"]
        elif kind == "status":
            t["status"] = e["status"]
        elif kind == "select":
            t["selection"] = e["target"]
        elif kind == "deselect":
            t["selection"] = None
        elif kind in ("pause", "resume"):
            t["paused"] = kind == "pause"
        else:  # "deal": a new table; the response has the state
            raise ValueError(f"event {kind!r}: a new table, read it from the state")
    t["free"] = sorted(free)
    return t
