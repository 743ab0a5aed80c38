"""The game itself: cards, rules and profiles, deals and their codes, moves, a game with its
undo and the reasons a move is refused, and a table drawn as text or SVG. It imports only
the runtime layer and the core (pyramid_core)."""
