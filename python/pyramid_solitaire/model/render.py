"""Pictures of a game: a plain-text table for terminals and an SVG for notebooks/frontends."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .cards import Card

if TYPE_CHECKING:
    from .game import Game


def _header(game: Game, hide_unseen: bool = False) -> str:
    name = "a deal" if hide_unseen else game.code or "card-list deal"
    return (
        f"{name} · {game.rules.name} · {game.status} · "
        f"{len(game.moves)} moves · {game.pyramid_removed}/28 pyramid cards removed"
    )


def _talon_line(game: Game, hide_unseen: bool = False) -> str:
    stock = game.stock
    hidden = set(game.unseen) if hide_unseen else set()
    nxt = f" (next: {stock[0]})" if stock and stock[0] not in hidden else ""
    if game.rules.draw == 1:
        waste = game.waste
        waste_txt = (
            f"{waste[-1]} ({len(waste)} card{'s' if len(waste) > 1 else ''})" if waste else "empty"
        )
    else:
        waste_txt = "  ".join(
            f"{i + 1}: {p[-1] if p else '--'}" for i, p in enumerate(game.waste_piles)
        )
    left = game.recycles_left
    rec = (
        f"{game.recycles_used} used, unlimited"
        if left is None
        else f"{game.recycles_used} used, {left} left"
    )
    line = f"Stock: {len(stock)} cards{nxt}   Waste: {waste_txt}   Recycles: {rec}"
    if game.rules.stock_top_playable and stock and stock[0] not in hidden:
        line += f"   Stock top (playable): {stock[0]}"
    return line


def table_text(game: Game, hide_unseen: bool = False) -> str:
    """The table as text: free cards in [brackets], removed places as '..'. With
    ``hide_unseen``, only what a player has seen: no deal code, no stock card not yet seen
    (what the environment's ``visible`` mode renders)."""
    pyramid, free = game.pyramid, game.free_mask
    lines = [_header(game, hide_unseen)]
    for r in range(7):
        cells = []
        for i in range(r * (r + 1) // 2, (r + 1) * (r + 2) // 2):
            card = pyramid[i]
            if card is None:
                cells.append(" .. ")
            elif (free >> i) & 1:
                cells.append(f"[{card}]")
            else:
                cells.append(f" {card} ")
        lines.append(" " * (2 * (6 - r) + 2) + "".join(cells).rstrip())
    lines.append(_talon_line(game, hide_unseen))
    lines.append("Free cards are in [brackets].")
    return "\n".join(lines)


# ---- SVG -------------------------------------------------------------------------------------
_W, _H, _DX, _DY, _PAD = 46, 64, 50, 34, 12
_GREEN, _RED, _BLACK = "#1f9d3a", "#c62828", "#212121"


def _card_svg(
    x: float,
    y: float,
    card: Card | None,
    *,
    free: bool = False,
    back: bool = False,
    label: str = "",
) -> str:
    if back:
        return (
            f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="5" fill="#2b5797" '
            f'stroke="#1b3a66"/><text x="{x + _W / 2}" y="{y + _H / 2 + 5}" '
            f'text-anchor="middle" font-size="14" fill="white">{escape(label)}</text>'
        )
    if card is None:
        return (
            f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="5" fill="none" '
            f'stroke="#bbb" stroke-dasharray="4 3"/>'
        )
    color = _RED if card.is_red else _BLACK
    stroke = f'stroke="{_GREEN}" stroke-width="3"' if free else 'stroke="#777" stroke-width="1"'
    sym = escape(card.symbol)
    return (
        f"<g><title>{card.token}</title>"
        f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="5" fill="white" {stroke}/>'
        f'<text x="{x + 4}" y="{y + 15}" font-size="13" font-weight="bold" '
        f'fill="{color}">{sym}</text>'
        f'<text x="{x + _W / 2}" y="{y + _H - 12}" text-anchor="middle" font-size="20" '
        f'fill="{color}">{escape(card.symbol[-1])}</text></g>'
    )


def table_svg(game: Game) -> str:
    """The table as an SVG picture: free cards with a green border (as in seed 000)."""
    width = _PAD * 2 + 6 * _DX + _W
    talon_y = _PAD + 6 * _DY + _H + 18
    height = talon_y + _H + 34
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#e8f1ea"/>',
    ]
    pyramid, free = game.pyramid, game.free_mask
    for r in range(7):
        x0 = _PAD + (6 - r) * _DX / 2
        for k in range(r + 1):
            i = r * (r + 1) // 2 + k
            if pyramid[i] is not None:  # removed places stay empty
                parts.append(
                    _card_svg(x0 + k * _DX, _PAD + r * _DY, pyramid[i], free=bool((free >> i) & 1))
                )
    stock = game.stock
    if game.rules.stock_top_playable and stock:
        parts.append(_card_svg(_PAD, talon_y, stock[0], free=True))
        parts.append(
            f'<text x="{_PAD}" y="{talon_y + _H + 14}" font-size="11">stock {len(stock)}</text>'
        )
    else:
        parts.append(_card_svg(_PAD, talon_y, None, back=bool(stock), label=str(len(stock))))
    available = set(game.available)
    for j, pile in enumerate(game.waste_piles):
        top = pile[-1] if pile else None
        parts.append(_card_svg(_PAD + (j + 1.3) * _DX, talon_y, top, free=top in available))
    status = escape(f"{game.code or ''}  {game.rules.name}  {game.status}  {len(game.moves)} moves")
    parts.append(
        f'<text x="{width - _PAD}" y="{height - 10}" text-anchor="end" '
        f'font-size="12" fill="#333">{status}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
