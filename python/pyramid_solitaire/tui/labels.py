"""The few words the terminal game draws itself (the labels around the table), in the
session's languages. Every notice (blocked, sum not 13, won, ...) is the session's
message, not one of these."""
from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "score": {"en": "Score", "vi": "Điểm"},
    "moves": {"en": "Moves", "vi": "Nước đi"},
    "removed": {"en": "Removed", "vi": "Đã loại"},
    "time": {"en": "Time", "vi": "Thời gian"},
    "stock": {"en": "Stock", "vi": "Nọc"},
    "stock_top": {"en": "Stock top", "vi": "Lá trên nọc"},
    "waste": {"en": "Waste", "vi": "Bài bỏ"},
    "redeals": {"en": "redeals", "vi": "chia lại"},
    "cards": {"en": "cards", "vi": "lá"},
    "card": {"en": "card", "vi": "lá"},
    "assisted": {"en": "assisted", "vi": "có gợi ý"},
    "paused_hint": {"en": "Paused: press P to go on",
                    "vi": "Tạm dừng: bấm P để tiếp tục"},
    "new_deal": {"en": "N new deal", "vi": "N ván mới"},
    "undo": {"en": "Z undo", "vi": "Z hoàn tác"},
    "replay": {"en": "X replay this deal", "vi": "X chơi lại ván này"},
    "games": {"en": "Games", "vi": "Số ván"},
    "wins": {"en": "Wins", "vi": "Thắng"},
    "best_score": {"en": "Best score", "vi": "Điểm cao nhất"},
    "fewest_moves": {"en": "Fewest moves", "vi": "Ít nước đi nhất"},
    "fastest_win": {"en": "Fastest win", "vi": "Thắng nhanh nhất"},
    "best_of": {"en": "Best of this game type", "vi": "Thành tích tốt nhất của kiểu chơi"},
    "statistics": {"en": "Statistics", "vi": "Thống kê"},
    # the footer's key names (by the binding's action)
    "key_draw": {"en": "Draw", "vi": "Rút"},
    "key_undo": {"en": "Undo", "vi": "Hoàn tác"},
    "key_redo": {"en": "Redo", "vi": "Làm lại"},
    "key_hint": {"en": "Hint", "vi": "Gợi ý"},
    "key_pause": {"en": "Pause", "vi": "Dừng"},
    "key_new_deal": {"en": "New", "vi": "Mới"},
    "key_restart": {"en": "Restart", "vi": "Chơi lại"},
    "key_language": {"en": "Language", "vi": "Ngôn ngữ"},
    "key_enter_code": {"en": "Code", "vi": "Mã"},
    "key_stats": {"en": "Stats", "vi": "Thống kê"},
    "key_help": {"en": "Help", "vi": "Trợ giúp"},
    "key_quit": {"en": "Quit", "vi": "Thoát"},
    "first_visit": {"en": "New here? Press ? for how to play",
                    "vi": "Lần đầu chơi? Bấm ? để xem cách chơi"},
    "best_wins": {"en": "Best wins", "vi": "Các ván thắng hay nhất"},
    "esc_close": {"en": "Esc to close", "vi": "Esc để đóng"},
    "win_rate": {"en": "Win rate", "vi": "Tỉ lệ thắng"},
    "streak": {"en": "Winning streak", "vi": "Chuỗi thắng"},
    "best_streak": {"en": "Best streak", "vi": "Chuỗi thắng dài nhất"},
    "deal": {"en": "Deal", "vi": "Ván"},
    "date": {"en": "Date", "vi": "Ngày"},
    "hints": {"en": "Hints", "vi": "Gợi ý"},
    "yes": {"en": "yes", "vi": "có"},
    "no_win": {"en": "no win yet", "vi": "chưa thắng ván nào"},
    "look": {"en": "Esc the table", "vi": "Esc xem bàn bài"},
    "quit": {"en": "Q quit", "vi": "Q thoát"},
}


def label(key: str, lang: str) -> str:
    texts = LABELS[key]
    return texts.get(lang, texts["en"])


def clock_text(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour)."""
    s = int(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"
