"""The session layer: profiles, the tap model, messages, scoring, undo and redo, the clock."""

from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from pyramid_solitaire import Deal, Move, Rules, Status, solve, solve_many
from pyramid_solitaire.session import CATALOGUE, LANGUAGES, Profile, Scoring, Session, message

from conftest import EASY_CLEAR, easy_deal, seed000_deal


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def index_of(session: Session, token: str) -> int:
    return [None if c is None else c.token for c in session.game.pyramid].index(token)


# ---- seed 000's walkthrough -----------------------------------------------------------------


def test_seed000_walkthrough_by_taps():
    s = Session(seed000_deal(), "pyramide", clock=FakeClock())
    assert [m.text for m in s.tap(index_of(s, "Qc"))] == ["This card is blocked by another card"]
    assert s.tap(index_of(s, "Kd")) == [] and s.score == 10  # a King: one tap
    assert s.tap(index_of(s, "Tc")) == [] and s.selection == index_of(s, "Tc")
    assert s.tap(index_of(s, "3s")) == [] and s.score == 30 and s.selection is None
    out = s.tap(index_of(s, "7c")) + s.tap(index_of(s, "7s"))
    assert [m.code for m in out] == ["sum_not_13"] and out[0].text == "Sum must be 13"
    assert s.selection == index_of(s, "7s")  # the second stays selected
    assert s.moves == 2 and s.score == 30
    s.tap(index_of(s, "7s"))  # tap it again: deselected
    assert s.selection is None


def test_explanations_off_and_vietnamese():
    quiet = Session(seed000_deal(), explain_errors=False)
    assert quiet.tap(index_of(quiet, "Qc")) == []
    vi = Session(seed000_deal(), lang="vi")
    assert vi.tap(index_of(vi, "Qc"))[0].text == "Lá bài này bị một lá khác chặn"
    with pytest.raises(ValueError, match="lang"):
        Session(seed000_deal(), lang="fr")


def test_stock_waste_and_drag():
    s = Session("PY1-N-AAAAAAS", clock=FakeClock())
    assert s.state()["waste_tops"] == ["Tc"]
    assert s.drag(index_of(s, "3d"), "waste") == [] and s.score == 10  # 3d + Tc (waste): 10
    stock = s.state()["stock"]
    assert s.tap("stock") == [] and s.state()["stock"] == stock - 1 and s.moves == 2
    with pytest.raises(ValueError, match="tap target"):
        s.tap("pile")
    with pytest.raises(ValueError, match="0..27"):
        s.tap(28)
    with pytest.raises(ValueError, match="draw three"):
        s.tap("waste:1")


def test_draw_three_piles():
    s = Session(Deal.from_number(3), "classic-draw3")
    s.tap("stock")
    tops = s.state()["waste_tops"]
    assert len(tops) == 3 and all(tops)
    for i in range(3):
        s.tap(f"waste:{i}")
        assert s.selection in (None, f"waste:{i}")
        s.selection = None


def test_stock_messages_at_the_end():
    s = Session(Deal.from_number(5), "classic", clock=FakeClock())
    while s.status is Status.PLAYING and "draw" in s.state()["legal_moves"]:
        s.tap("stock")
    if s.status is Status.PLAYING:
        assert [m.code for m in s.tap("stock")] == ["no_redeals_left"]


def test_play_direct_and_illegal():
    s = Session(seed000_deal())
    assert s.play("Kd") == [] and s.score == 10
    out = s.play("Qc+As")
    assert out[0].code == "illegal_move" and "blocked" in out[0].text and s.score == 10
    assert s.play("nonsense")[0].code == "illegal_move"


# ---- scoring, undo, the moves counter -------------------------------------------------------


def test_pyramide_undo_takes_points_back_but_not_moves():
    s = Session(seed000_deal(), "pyramide")
    s.play("Kd"), s.play("Tc+3s")
    assert (s.score, s.moves) == (30, 2)
    s.undo()
    assert (s.score, s.moves) == (10, 2) and s.game.pyramid_removed == 1
    s.redo()
    assert (s.score, s.moves) == (30, 3)
    assert s.redo()[0].code == "nothing_to_redo"
    s.undo()
    s.tap("stock")  # a new action clears the redo stack
    assert not s.can_redo


def test_pyramide_undo_limit_100():
    s = Session(seed000_deal(), "pyramide")
    for _ in range(101):
        s.tap("stock")
    for _ in range(100):
        assert s.undo() == []
    assert [m.code for m in s.undo()] == ["undo_limit"] and s.moves == 101
    assert Session(seed000_deal()).undo()[0].code == "nothing_to_undo"


@pytest.mark.parametrize("profile", ["three-pass", "unlimited"])
def test_unlimited_undo_counts_a_move(profile):
    s = Session(
        seed000_deal(), Profile.preset(profile).replace(rules=Rules(), no_chance_notice=False)
    )
    for _ in range(150):
        s.tap("stock")
    for _ in range(150):
        assert s.undo() == []
    assert s.moves == 300 and len(s.game.moves) == 0


def test_three_pass_scoring_and_win_bonus():
    clock = FakeClock()
    s = Session(
        "PY1-N-AAAAAAS", Profile.preset("three-pass").replace(rules="pyramide"), clock=clock
    )
    s.play("3d+Tc")  # a pyramid card and a talon card: 10 + 2
    assert s.score == 12
    easy = Session(easy_deal(), "three-pass", clock=clock)
    for move in EASY_CLEAR:
        clock.t += 2
        out = easy.play(move)
    assert easy.status is Status.WON and [m.code for m in out] == ["won"]
    seconds = easy.seconds
    assert seconds == 2 * len(EASY_CLEAR)
    assert easy.score == 280 + int(600 - 2 * len(EASY_CLEAR) - 0.5 * seconds)
    clock.t += 100
    assert easy.seconds == seconds  # the clock stops at the end
    easy.undo()
    assert easy.score == 270 and easy.status is Status.PLAYING


def test_seed000_win_is_always_280():
    s = Session(easy_deal(), "pyramide")
    for move in EASY_CLEAR:
        s.play(move)
    assert s.status is Status.WON and s.score == 280


def test_no_points_under_unlimited_and_the_no_chance_notice():
    r = solve_many(np.arange(60), "unlimited")
    lost = int(np.flatnonzero(r.winnable == 0)[0])
    s = Session(Deal.from_number(lost, rules="unlimited"), "unlimited")
    out = s.tap("stock")
    assert [m.code for m in out] == ["no_chance"] and s.score == 0
    assert s.tap("stock") == []  # said once
    won = int(np.flatnonzero(r.winnable == 1)[0])
    w = Session(Deal.from_number(won, rules="unlimited"), "unlimited")
    assert "no_chance" not in [m.code for m in w.tap("stock")]


def test_hint_marks_the_game_assisted():
    s = Session("PY1-N-AAAAAAS")
    out = s.hint()
    assert out[0].code == "hint" and s.assisted
    assert s.game.is_legal(Move.parse(out[0].args["move"]))


def test_hints_are_in_the_players_words_and_lead_to_a_shortest_win():
    from pyramid_solitaire import solve

    s = Session("PY1-N-AAAAAAS")
    shortest = solve("PY1-N-AAAAAAS", objective="min_moves").n_moves
    said = set()
    while str(s.status) == "playing":
        hint = s.hint()[0]
        assert hint.code == "hint" and hint.args["win_in"] == shortest - len(s.game.moves)
        move = Move.parse(hint.args["move"])
        said.add((move.kind, hint.text))
        s.play(move)
    assert str(s.status) == "won" and len(s.game.moves) == shortest  # hints alone win fastest
    kinds = {kind for kind, _ in said}
    assert {"king", "pair", "draw"} <= kinds
    for kind, text in said:
        assert text.startswith(
            {
                "king": "Remove ",
                "pair": "Pair ",
                "draw": "Draw a card",
                "recycle": "Turn the waste over",
            }[kind]
        )
        assert "+" not in text  # words, not notation
    s = Session("PY1-N-AAAAAAS", lang="vi")
    assert s.hint()[0].text.startswith(("Bỏ ", "Ghép ", "Rút một lá", "Lật lại"))


# ---- the clock -----------------------------------------------------------------------------


def test_clock_pause_and_resume():
    clock = FakeClock()
    s = Session("PY1-N-AAAAAAS", clock=clock)
    clock.t += 10
    s.pause()
    clock.t += 100
    assert s.seconds == 10 and s.state()["paused"]
    s.resume()
    clock.t += 5
    assert s.seconds == 15
    s.restart()
    assert s.seconds == 0 and s.moves == 0


# ---- profiles and messages ---------------------------------------------------------------------


def test_profiles():
    assert Profile.names() == [
        "pyramide",
        "three-pass",
        "unlimited",
        "classic",
        "classic-draw3",
        "msc",
    ]
    p = Profile.preset("pyramide")
    assert p.scoring == Scoring(pyramid=10) and p.undo_limit == 100 and not p.undo_counts_move
    assert Profile.preset("msc").rules == Rules.preset("msc")
    assert p.replace(undo_limit=None).undo_limit is None
    for bad in (
        dict(undo_limit=-1),
        dict(nope=1),
        dict(rules="vegas"),
        dict(ranking=("luck",)),
        dict(explain_errors="yes"),
    ):
        with pytest.raises(ValueError):
            p.replace(**bad)
    with pytest.raises(ValueError, match="unknown profile"):
        Profile.preset("vegas")


def test_every_message_in_every_language():
    for code, texts in CATALOGUE.items():
        assert set(texts) == set(LANGUAGES), code
        fields = {
            lang: {f for _, f, _, _ in string.Formatter().parse(t) if f}
            for lang, t in texts.items()
        }
        assert len({frozenset(f) for f in fields.values()}) == 1, code
        args = {f: "x" for f in fields["en"]}
        assert all(message(code, lang, **args).text for lang in LANGUAGES)
    assert message("no_moves", "vi").text == "Không còn nước đi nào"


# ---- random taps and undos against the engine ------------------------------------------------

TARGETS = st.one_of(
    st.integers(0, 27),
    st.sampled_from(["stock", "waste", "stock:top", "waste:0", "waste:1", "waste:2"]),
)
MACHINE_PROFILES = ["pyramide", "three-pass", "unlimited", "classic", "classic-draw3", "msc"]


class SessionMachine(RuleBasedStateMachine):
    """Random taps, drags, plays, undos, redos, clock ticks and save round trips under every
    profile, checked against a model kept here from the engine's view of each move: the
    cards accounted for, the score (the profile's points for where the removed cards were,
    and its bonus on a win), the moves counter under the profile's policy, undo restoring the
    exact state before the action and redo the state after it."""

    @initialize(profile=st.sampled_from(MACHINE_PROFILES), number=st.integers(0, 50))
    def start(self, profile, number):
        self.clock = FakeClock()
        self.s = Session(Deal.from_number(number), profile, clock=self.clock)
        self.done: list[tuple] = []  # (state before, state after, points) per action
        self.undone: list[tuple] = []
        self.moves = 0

    def snapshot(self) -> tuple:
        g = self.s.game
        return (g.position, self.s.score, tuple(g.moves))

    def _acted(self, before: tuple, act) -> None:
        """Run ``act``; when it played a move, check its points and push it."""
        g = self.s.game
        played = len(g.moves)
        where = None
        legal = set(g.legal_moves)
        act()
        if len(g.moves) == played:
            assert self.snapshot() == before  # nothing played: nothing changed
            return
        assert len(g.moves) == played + 1 and g.moves[-1] in legal
        move = g.moves[-1]
        g.undo()
        where = [g.where(c) for c in move.cards]
        g.play(move)
        scoring = self.s.profile.scoring
        points = scoring.removal(where.count("pyramid"), len(where) - where.count("pyramid"))
        self.moves += 1
        if self.s.status is Status.WON:
            points += scoring.bonus(self.moves, self.s.seconds)
        assert self.s.score == before[1] + points
        self.done.append((before, self.snapshot()))

    @rule(where=TARGETS)
    def tap(self, where):
        if where == "stock:top" and not self.s.game.rules.stock_top_playable:
            with pytest.raises(ValueError):
                self.s.tap(where)
            return
        if where.startswith("waste:") if isinstance(where, str) else False:
            if self.s.game.rules.draw != 3:
                with pytest.raises(ValueError):
                    self.s.tap(where)
                return
        self.undone_if_changed(lambda: self.s.tap(where))

    @rule(a=st.integers(0, 27), b=st.one_of(st.integers(0, 27), st.just("waste")))
    def drag(self, a, b):
        self.undone_if_changed(lambda: self.s.drag(a, b))

    @rule(k=st.integers(0, 40))
    def play(self, k):
        legal = self.s.game.legal_moves
        if legal:
            self.undone_if_changed(lambda: self.s.play(legal[k % len(legal)]))

    def undone_if_changed(self, act) -> None:
        played = len(self.s.game.moves)
        self._acted(self.snapshot(), act)
        if len(self.s.game.moves) != played:
            self.undone.clear()  # a new action ends redo
            assert not self.s.can_redo

    @precondition(lambda self: self.s.can_undo)
    @rule()
    def undo(self):
        before, after = self.done.pop()
        assert self.snapshot() == after
        self.s.undo()
        if self.s.profile.undo_counts_move:
            self.moves += 1
        assert self.snapshot() == before
        self.undone.append((before, after))

    @rule()
    def undo_when_nothing(self):
        if not self.s.can_undo:
            state = self.s.state()
            assert [m.code for m in self.s.undo()] in (["nothing_to_undo"], ["undo_limit"])
            assert self.s.state() == state

    @precondition(lambda self: self.s.can_redo)
    @rule()
    def redo(self):
        before, after = self.undone.pop()
        assert self.snapshot() == before
        self.s.redo()
        self.moves += 1
        assert self.snapshot()[:2] == after[:2]
        self.done.append((before, self.snapshot()))

    @rule(seconds=st.floats(0, 100))
    def tick(self, seconds):
        self.clock.t += seconds

    @rule()
    def round_trip(self):
        again = Session.from_json(self.s.to_json(), clock=self.clock)
        assert again.state() == self.s.state()
        assert again.to_json() == self.s.to_json()

    @invariant()
    def accounted(self):
        if not hasattr(self, "s"):
            return
        g = self.s.game
        places = (
            len([c for c in g.pyramid if c is not None])
            + len(g.stock)
            + len(g.waste)
            + len(g.removed)
        )
        assert places == 52
        assert self.s.moves == self.moves
        assert self.s.can_undo == bool(self.done) and self.s.can_redo == bool(self.undone)
        undoable = [a.move for a in self.s._undo]
        assert g.moves[len(g.moves) - len(undoable) :] == undoable  # the last actions
        targets = self.s.targets()
        if self.s.status is not Status.PLAYING:
            assert targets == []  # a finished game: nothing to tap
            return
        playable = set(g.playable_cards)
        for t in targets:  # each one reaches a card that can be played
            assert t == "stock" or self.s._card_at(t) in playable
        assert len({self.s._card_at(t) for t in targets if t != "stock"}) == len(playable) - (
            len(g.waste) > 1 and g.rules.pair_waste_top_two
        )


SessionMachine.TestCase.settings = settings(max_examples=100, stateful_step_count=60, deadline=None)
TestSessionMachine = SessionMachine.TestCase


# ---- saves -----------------------------------------------------------------------------------


def _played(clock=None, **kwargs) -> Session:
    s = Session(seed000_deal(), "three-pass", clock=clock or FakeClock(), **kwargs)
    s.play("Kd"), s.tap("stock"), s.play("Tc+3s"), s.undo()
    s.tap(index_of(s, "7c"))
    return s


def test_save_round_trips_exactly():
    clock = FakeClock()
    s = _played(clock)
    clock.t += 42
    text = s.to_json()
    again = Session.from_json(text, clock=clock)
    assert again.to_json() == text and again.state() == s.state()
    assert again.redo() == s.redo() and again.state() == s.state()
    numbered = Session("PY1-M-AAAAAAS", "msc", clock=clock)
    numbered.tap("stock")
    assert Session.from_json(numbered.to_json(), clock=clock).game.code == "PY1-M-AAAAAAS"


def test_autosave_after_every_action(tmp_path):
    path = tmp_path / "game.json"
    clock = FakeClock()
    s = Session(seed000_deal(), clock=clock, autosave=path)
    s.play("Kd")
    assert Session.load(path, clock=clock).score == 10
    s.undo()
    resumed = Session.load(path, clock=clock, autosave=True)
    assert resumed.score == 0 and resumed.can_redo
    resumed.redo()
    assert Session.load(path, clock=clock).score == 10
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"", "not JSON"),
        (b'{"format": "pyramid-solitaire-session", "version": 1, "deal"', "truncated"),
        (b'{"hello": "world"}', "not a pyramid-solitaire save"),
        (b'{"format": "pyramid-solitaire-session", "version": 99}', "newer"),
        (b"\xff\xfe\x00garbage", "not JSON"),
        (b"[1, 2, 3]", "not a pyramid-solitaire save"),
    ],
)
def test_bad_saves_are_refused_and_left_alone(tmp_path, content, problem):
    path = tmp_path / "game.json"
    path.write_bytes(content)
    with pytest.raises(ValueError) as info:
        Session.load(path)
    assert str(path) in str(info.value) and problem in str(info.value)
    assert path.read_bytes() == content


def test_a_save_with_illegal_moves_is_refused(tmp_path):
    import json

    doc = json.loads(_played().to_json())
    doc["history"][0] = "Qc+As"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="blocked"):
        Session.load(path)
    del doc["score"]
    with pytest.raises(ValueError, match="'history'|'score'|blocked"):
        Session.from_json(json.dumps(doc))


# ---- pause, new deals, profiles ---------------------------------------------------------------


def test_a_paused_game_refuses_actions_and_a_finished_one_does_not_pause():
    clock = FakeClock()
    s = Session("PY1-N-AAAAAAS", clock=clock)
    s.pause()
    before = s.state()
    for action in (
        lambda: s.tap(22),
        lambda: s.play("Kc"),
        lambda: s.undo(),
        lambda: s.redo(),
        lambda: s.hint(),
        lambda: s.drag(21, 25),
    ):
        assert [m.code for m in action()] == ["game_paused"]
    assert s.state() == before and not s.assisted
    assert [m.code for m in s.resume()] == ["resumed"] and s.resume() == []
    assert s.tap(22) == [] and s.score == 10
    won = Session(seed000_deal(), clock=clock)
    for move in solve(won.game).moves:
        won.play(move)
    assert won.status is Status.WON
    assert won.pause() == [] and not won.paused


def test_new_deal_random_and_under_another_profile(tmp_path):
    from pyramid_solitaire.session.stats import StatsStore

    store = StatsStore(tmp_path / "stats.sqlite3")
    s = Session("PY1-N-AAAAAAS", clock=FakeClock(), stats=store)
    s.tap(22)
    assert [m.code for m in s.new_deal(None, winnable_only=True, rng=5)] == ["difficulty"]
    assert s.game.code.startswith("PY1-N-") and s.moves == 0
    assert solve(s.game).winnable
    s.tap("stock")
    s.new_deal("PY1-T-AAAAAAS", "three-pass")
    assert s.profile.name == "three-pass" and s.game.rules.name == "three-pass"
    rows = store._db.execute("SELECT profile, result FROM games ORDER BY id").fetchall()
    assert rows == [("pyramide", "abandoned"), ("pyramide", "abandoned")]
    with pytest.raises(ValueError):
        s.new_deal("PY1-N-AAAAAAS", "three-pass")  # the code names other rules
    assert s.game.code == "PY1-T-AAAAAAS"  # nothing changed
    s.play("Kc")
    s.save(tmp_path / "game.json")
    again = Session.load(tmp_path / "game.json", stats=store, lang="vi")
    assert again.lang == "vi" and again.stats is store
    assert again.tap(0)[0].text == message("blocked", "vi").text


def test_undoing_the_winning_move_does_not_count_the_time_since():
    clock = FakeClock()
    s = Session("PY1-T-AAAAAAB", "three-pass", clock=clock)
    for move in solve(s.game).moves:
        clock.t += 1
        s.play(move)
    assert s.status is Status.WON
    won_seconds, won_score = s.seconds, s.score
    clock.t += 600  # the won game left on the screen
    s.undo()
    assert s.seconds == won_seconds
    s.redo()  # (undo and redo: two more moves)
    assert s.seconds == won_seconds and s.score == won_score - 2 * 2


def test_a_statistics_file_that_fails_costs_the_record_not_the_game(tmp_path):
    bad = tmp_path / "not-stats.sqlite3"
    bad.write_text("hello")
    s = Session(seed000_deal(), clock=FakeClock(), stats=bad)
    moves = solve(s.game).moves
    for move in moves[:-1]:
        s.play(move)
    out = s.play(moves[-1])
    assert [m.code for m in out] == ["won", "stats_failed"] and s.status is Status.WON
    assert bad.read_text() == "hello"


def test_targets_and_codes_named_by_their_game():
    s = Session("PY1-N-AAAAAAS", clock=FakeClock())
    with pytest.raises(ValueError, match="stock:top"):
        s.tap("stock:top")  # only where the stock top is playable
    s.new_deal("PY1-M-AAAAAAS")  # a pasted msc code: the msc game
    assert s.profile.name == "msc" and s.game.code == "PY1-M-AAAAAAS"
    s.new_deal(Deal.from_number(3).to_cards())  # a card list: this game
    assert s.profile.name == "msc"
