"""How to play: the rules page of a game type, in English or Vietnamese, written from the
profile itself (its rules and its scoring), so that both games show the same page and no
frontend writes a rule of its own. The seeds' rule texts are the model: the goal, the
13 pairs and the Kings, the free cards, the stock and the redeals of this game, its points.
A frontend adds its own keys.

>>> page = how_to_play("msc", "en")
>>> page["title"]
'How to play: Microsoft Solitaire Collection'
>>> [s["title"] for s in page["sections"]]
['Goal', 'Pairs of 13', 'Free cards', 'The stock and the waste', 'Points']
>>> print(page["sections"][3]["paragraphs"][-1])       # doctest: +NORMALIZE_WHITESPACE
When the stock is empty, tapping it turns the waste over to go through it again: 2 times
in this game (shown under the stock).
"""

from __future__ import annotations

from typing import Any

from ..model.options import OPTIONS, Section
from ..model.profiles import Profile
from ..model.rules import Rules
from .messages import check_lang

#: Every text of the page, in both languages ({placeholders} filled from the profile), but
#: for what the rule options say: their sentences are in their table (model/options.py).
TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "How to play: {game}", "vi": "Cách chơi: {game}"},
    "goal": {"en": "Goal", "vi": "Mục tiêu"},
    "deal": {
        "en": "The 28 pyramid cards lie face up in 7 rows, each card partly covered by "
        "the two below it; the other 24 cards are the stock, face down.",
        "vi": "28 lá kim tự tháp nằm ngửa trên 7 hàng, mỗi lá bị hai lá ở hàng dưới che "
        "một phần; 24 lá còn lại úp thành nọc.",
    },
    "pairs": {"en": "Pairs of 13", "vi": "Các cặp có tổng 13"},
    "pairs_text": {
        "en": "Tap a free card, then another: if their values add up to 13, both "
        "are removed. An Ace is 1, a Jack 11, a Queen 12, the others their "
        "number; suits do not matter.",
        "vi": "Chạm một lá tự do rồi một lá khác: nếu tổng giá trị bằng 13, cả hai "
        "được loại. Át là 1, Bồi 11, Đầm 12, các lá khác bằng số trên lá; chất "
        "bài không ảnh hưởng.",
    },
    "pairs_list": {
        "en": "The pairs: A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7.",
        "vi": "Các cặp: Át + Đầm, 2 + Bồi, 3 + 10, 4 + 9, 5 + 8, 6 + 7.",
    },
    "kings": {
        "en": "A King is 13 on its own: one tap removes it.",
        "vi": "Lá Già có giá trị 13: chạm một lần là loại được.",
    },
    "free": {"en": "Free cards", "vi": "Các lá tự do"},
    "free_text": {
        "en": "A pyramid card is free when no card covers it any more: at the start, "
        "the 7 cards of the bottom row. The top card of the waste is free too.",
        "vi": "Một lá trong kim tự tháp là tự do khi không còn lá nào đè lên nó: lúc "
        "đầu là 7 lá ở hàng dưới cùng. Lá trên cùng của chồng bài bỏ cũng tự "
        "do.",
    },
    "stock": {"en": "The stock and the waste", "vi": "Nọc và chồng bài bỏ"},
    "end": {
        "en": "The game ends when you win, or when no move is left.",
        "vi": "Ván bài kết thúc khi bạn thắng, hoặc khi không còn nước đi nào.",
    },
    "points": {"en": "Points", "vi": "Điểm"},
    "points_pyramid": {
        "en": "{n} points for each pyramid card removed.",
        "vi": "{n} điểm cho mỗi lá kim tự tháp được loại.",
    },
    "points_talon": {
        "en": "{n} points for each stock or waste card removed.",
        "vi": "{n} điểm cho mỗi lá của nọc hoặc bài bỏ được loại.",
    },
    "points_bonus": {
        "en": "A win adds a bonus of {bonus} points, less {per_move} for each "
        "move and {per_second} for each second played (never below 0).",
        "vi": "Khi thắng được cộng thưởng {bonus} điểm, trừ {per_move} cho mỗi "
        "nước đi và {per_second} cho mỗi giây đã chơi (không dưới 0).",
    },
    "no_points": {
        "en": "This game has no points: the fewest moves and the fastest time make the best games.",
        "vi": "Kiểu chơi này không tính điểm: ít nước đi nhất và nhanh nhất là ván hay nhất.",
    },
    "ranking": {
        "en": "High scores rank games by {order}.",
        "vi": "Bảng điểm cao xếp các ván theo {order}.",
    },
    "rank_score": {"en": "score", "vi": "điểm"},
    "rank_moves": {"en": "moves", "vi": "số nước đi"},
    "rank_seconds": {"en": "time", "vi": "thời gian"},
    "undo_some": {
        "en": "Only the last {n} actions can be undone.",
        "vi": "Chỉ hoàn tác được {n} thao tác gần nhất.",
    },
    "undo_counts": {
        "en": "An undo counts as a move.",
        "vi": "Mỗi lần hoàn tác được tính là một nước đi.",
    },
    "no_chance": {
        "en": "The game tells you as soon as the deal can no longer be won.",
        "vi": "Trò chơi báo ngay khi ván bài không còn cơ hội thắng.",
    },
}


def _t(key: str, lang: str, **args: Any) -> str:
    return TEXTS[key][lang].format(**args)


def _option_sentences(rules: Rules, section: Section, lang: str) -> list[str]:
    """What the rule options say in ``section`` (model/options.py: each option's sentences)."""
    said = [
        (sentence.place, getattr(sentence, lang).format(n=getattr(rules, o.name)))
        for o in OPTIONS
        for sentence in o.sentences
        if sentence.section == section and sentence.when(getattr(rules, o.name))
    ]
    return [text for _place, text in sorted(said, key=lambda s: s[0])]


def _number(x: float) -> str:
    return f"{x:g}"


def how_to_play(profile: Profile | str = "pyramide", lang: str = "en") -> dict[str, Any]:
    """The rules page of ``profile`` in ``lang``: ``{"title", "profile", "lang",
    "sections": [{"title", "paragraphs": [...]}]}``, JSON-ready (the protocol's ``howto``
    answers it)."""
    profile = Profile.preset(profile)
    lang = check_lang(lang)
    rules, scoring = profile.rules, profile.scoring
    goal = [*_option_sentences(rules, "goal", lang), _t("deal", lang), _t("end", lang)]
    pairs = [_t("pairs_text", lang), _t("pairs_list", lang), _t("kings", lang)]
    free = [_t("free_text", lang), *_option_sentences(rules, "free", lang)]
    stock = _option_sentences(rules, "stock", lang)
    if scoring.pyramid or scoring.talon or scoring.win_bonus:
        points = []
        if scoring.pyramid:
            points.append(_t("points_pyramid", lang, n=scoring.pyramid))
        if scoring.talon:
            points.append(_t("points_talon", lang, n=scoring.talon))
        if scoring.win_bonus:
            points.append(
                _t(
                    "points_bonus",
                    lang,
                    bonus=scoring.win_bonus,
                    per_move=_number(scoring.bonus_per_move),
                    per_second=_number(scoring.bonus_per_second),
                )
            )
    else:
        points = [_t("no_points", lang)]
    points.append(
        _t("ranking", lang, order=", ".join(_t(f"rank_{r}", lang) for r in profile.ranking))
    )
    if profile.undo_limit is not None:
        points.append(_t("undo_some", lang, n=profile.undo_limit))
    if profile.undo_counts_move:
        points.append(_t("undo_counts", lang))
    if profile.no_chance_notice:
        points.append(_t("no_chance", lang))
    sections = [
        ("goal", goal),
        ("pairs", pairs),
        ("free", free),
        ("stock", stock),
        ("points", points),
    ]
    from .messages import game_name

    return {
        "title": _t("title", lang, game=game_name(profile.name, lang)),
        "profile": profile.name,
        "lang": lang,
        "sections": [{"title": _t(key, lang), "paragraphs": text} for key, text in sections],
    }
