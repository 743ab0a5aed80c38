"""Every notice a session can give: a stable code, and its text in English and Vietnamese
(the seeds' language). This catalogue is the one place the texts live; frontends show
``message.text`` or translate ``message.code`` themselves.

>>> message("sum_not_13", "vi").text
'Tổng phải bằng 13'
>>> message("hint_pair", "en", a="10♣", b="3♠", move="Tc+3s").text
'Pair 10♣ with 3♠'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LANGUAGES = ("en", "vi")

CATALOGUE: dict[str, dict[str, str]] = {
    "blocked": {
        "en": "This card is blocked by another card",
        "vi": "Lá bài này bị một lá khác chặn",
    },
    "sum_not_13": {"en": "Sum must be 13", "vi": "Tổng phải bằng 13"},
    "not_allowed": {
        "en": "These two cards cannot be removed together: {why}",
        "vi": "Không thể bỏ hai lá này cùng nhau: {why}",
    },
    "no_moves": {"en": "No more moves", "vi": "Không còn nước đi nào"},
    "no_chance": {"en": "No chance to win any more", "vi": "Không còn cơ hội thắng"},
    "won": {"en": "You won!", "vi": "Bạn đã thắng!"},
    "game_over": {
        "en": "The game is over: start a new one",
        "vi": "Ván bài đã kết thúc: hãy bắt đầu ván mới",
    },
    "nothing_to_undo": {"en": "Nothing to undo", "vi": "Không có gì để hoàn tác"},
    "undo_limit": {
        "en": "No more undo: only the last {limit} actions can be undone",
        "vi": "Không thể hoàn tác thêm: chỉ hoàn tác được {limit} thao tác gần nhất",
    },
    "nothing_to_redo": {"en": "Nothing to redo", "vi": "Không có gì để làm lại"},
    "stock_empty": {
        "en": "The stock and the waste are empty",
        "vi": "Nọc và chồng bài bỏ đều đã hết",
    },
    "no_redeals_left": {"en": "No redeals left", "vi": "Đã hết lượt chia lại"},
    "hint": {"en": "Hint: {move}", "vi": "Gợi ý: {move}"},
    # a hint in the player's words (code "hint" in the session's messages, text from these)
    "hint_king": {"en": "Remove {card}", "vi": "Bỏ {card}"},
    "hint_pair": {"en": "Pair {a} with {b}", "vi": "Ghép {a} với {b}"},
    "hint_draw": {"en": "Draw a card", "vi": "Rút một lá"},
    "hint_recycle": {"en": "Turn the waste over", "vi": "Lật lại chồng bài bỏ"},
    "no_hint": {
        "en": "No move can remove another pyramid card",
        "vi": "Không còn nước nào bỏ thêm được lá trong kim tự tháp",
    },
    "hint_unknown": {"en": "No hint found in time", "vi": "Không tìm được gợi ý kịp thời"},
    # the chance to win from what the player has seen (session.chance())
    "chance": {
        "en": "Chance to win: about {percent}% (from the cards you have seen)",
        "vi": "Cơ hội thắng: khoảng {percent}% (theo những lá bạn đã thấy)",
    },
    "chance_exact_won": {
        "en": "This game can still be won",
        "vi": "Ván này vẫn có thể thắng",
    },
    "chance_exact_lost": {
        "en": "This game can no longer be won",
        "vi": "Ván này không thể thắng được nữa",
    },
    "chance_unknown": {
        "en": "The chance to win could not be worked out in time",
        "vi": "Không tính kịp cơ hội thắng",
    },
    "fair_hints_on": {
        "en": "Hints no longer look at the face-down stock",
        "vi": "Gợi ý không còn nhìn các lá úp trong nọc",
    },
    "fair_hints_off": {
        "en": "Hints may look at the face-down stock",
        "vi": "Gợi ý có thể nhìn các lá úp trong nọc",
    },
    "illegal_move": {"en": "Not a legal move: {why}", "vi": "Nước đi không hợp lệ: {why}"},
    # auto-finish (session.finish()): offered once a game, when the rest needs no choice
    "finish_offer": {
        "en": "The rest needs no choice: the game can finish itself",
        "vi": "Phần còn lại không cần lựa chọn nữa: ván bài có thể tự hoàn thành",
    },
    "cannot_finish": {
        "en": "The game cannot finish itself yet: the rest still needs your choices",
        "vi": "Ván bài chưa thể tự hoàn thành: phần còn lại vẫn cần bạn lựa chọn",
    },
    "paused": {"en": "Paused", "vi": "Tạm dừng"},
    "resumed": {"en": "Resumed", "vi": "Tiếp tục"},
    "stats_failed": {
        "en": "The statistics file cannot be written: this game is not recorded",
        "vi": "Không ghi được tệp thống kê: ván này không được lưu lại",
    },
    "game_paused": {
        "en": "The game is paused: resume it to play",
        "vi": "Ván bài đang tạm dừng: hãy tiếp tục để chơi",
    },
    "saved": {"en": "Game saved", "vi": "Đã lưu ván bài"},
    "not_saved": {
        "en": "This game cannot be saved ({why}): play on, saving is tried again",
        "vi": "Không lưu được ván bài này ({why}): cứ chơi tiếp, sẽ thử lưu lại",
    },
    "save_unreadable": {
        "en": "Your saved game could not be read ({why}); it was kept as "
        "{kept}. Here is a new deal",
        "vi": "Không đọc được ván bài đã lưu ({why}); tệp được giữ lại là {kept}. Đây là ván mới",
    },
    "loaded": {"en": "Saved game resumed", "vi": "Đã mở lại ván bài đã lưu"},
    # args: level 1..6, label (a fixed word: easy .. unwinnable), words (the label in words)
    "difficulty": {"en": "Difficulty: {words}", "vi": "Độ khó: {words}"},
    # a daily deal's greeting (args: date, YYYY-MM-DD; shown, as the language writes dates)
    "daily": {"en": "Daily deal of {shown}", "vi": "Ván bài hằng ngày, ngày {shown}"},
    # the game types' names, as players read them
    "game_pyramide": {"en": "Pyramide", "vi": "Pyramide"},
    "game_three-pass": {"en": "Three passes", "vi": "Ba lượt"},
    "game_unlimited": {"en": "Unlimited", "vi": "Không giới hạn"},
    "game_classic": {"en": "Classic", "vi": "Cổ điển"},
    "game_classic-draw3": {"en": "Classic, draw three", "vi": "Cổ điển, rút ba"},
    "game_msc": {"en": "Microsoft Solitaire Collection", "vi": "Microsoft Solitaire Collection"},
    "card_list": {"en": "a card list", "vi": "danh sách lá bài"},
    "difficulty_easy": {"en": "easy", "vi": "dễ"},
    "difficulty_medium": {"en": "medium", "vi": "vừa"},
    "difficulty_hard": {"en": "hard", "vi": "khó"},
    "difficulty_very_hard": {"en": "very hard", "vi": "rất khó"},
    "difficulty_expert": {"en": "expert", "vi": "chuyên gia"},
    "difficulty_unwinnable": {"en": "cannot be won", "vi": "không thể thắng"},
}


@dataclass(frozen=True)
class Message:
    """A notice: ``code`` (stable, for programs), ``text`` (for people), ``args``."""

    code: str
    text: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "text": self.text, **({"args": self.args} if self.args else {})}


def check_lang(lang: Any) -> str:
    if lang not in LANGUAGES:
        from ..runtime.args import excerpt

        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {excerpt(lang)}")
    return str(lang)


def message(code: str, lang: str = "en", **args: Any) -> Message:
    """The message ``code`` in ``lang``, its ``{placeholders}`` filled from ``args``."""
    texts = CATALOGUE[code]
    return Message(code, texts[check_lang(lang)].format(**args), dict(args))


def game_name(profile: str, lang: str = "en") -> str:
    """A game type's name for players (``three-pass``: "Three passes", "Ba lượt"); a
    profile of the user's own keeps its name."""
    key = f"game_{profile}"
    return CATALOGUE[key][check_lang(lang)] if key in CATALOGUE else profile
