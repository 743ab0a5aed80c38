"""The words the frontends draw themselves, in the session's languages: the labels around
the table, buttons, questions, the statistics' rows. The one place they live: the terminal
game reads them with :func:`label`, and the browser game gets them in the protocol's
``hello`` (``labels``). Every notice of a game (blocked, sum not 13, won, ...) is a session
message (:mod:`.messages`), and the end of a game and "a card list" are said in its words.

>>> label("removed", "vi")
'Đã loại'
>>> label("cannot_save_to", "en", path="/tmp/x.json", why="disk full")
'Cannot save to /tmp/x.json: disk full'
"""

from __future__ import annotations

from typing import Any

from .messages import CATALOGUE, LANGUAGES

LABELS: dict[str, dict[str, str]] = {
    "title": {"en": "Pyramid", "vi": "Kim tự tháp"},
    "score": {"en": "Score", "vi": "Điểm"},
    "moves": {"en": "Moves", "vi": "Nước đi"},
    "time": {"en": "Time", "vi": "Thời gian"},
    "redeals": {"en": "Redeals", "vi": "Lượt chia lại"},
    "difficulty": {"en": "Difficulty", "vi": "Độ khó"},
    "undo": {"en": "Undo", "vi": "Hoàn tác"},
    "redo": {"en": "Redo", "vi": "Làm lại"},
    "hint": {"en": "Hint", "vi": "Gợi ý"},
    "fair_hints": {
        "en": "Hints without peeking at the stock",
        "vi": "Gợi ý không nhìn lén nọc",
    },
    "chance": {"en": "Chance to win", "vi": "Cơ hội thắng"},
    "draw": {"en": "Draw", "vi": "Rút bài"},
    "pause": {"en": "Pause", "vi": "Tạm dừng"},
    "resume": {"en": "Resume", "vi": "Tiếp tục"},
    "paused": {"en": "Paused: resume", "vi": "Đang tạm dừng: tiếp tục"},
    "restart": {"en": "Restart", "vi": "Chơi lại"},
    "new": {"en": "New deal", "vi": "Ván mới"},
    "scores": {"en": "High scores", "vi": "Điểm cao"},
    "paste": {"en": "Paste a deal code or 52 cards", "vi": "Dán mã ván hoặc 52 lá bài"},
    "play_code": {"en": "Play it", "vi": "Chơi ván này"},
    "profile": {"en": "Game", "vi": "Kiểu chơi"},
    "language": {"en": "Language", "vi": "Ngôn ngữ"},
    "winnable": {"en": "Winnable deals only", "vi": "Chỉ ván thắng được"},
    "dark": {"en": "Dark", "vi": "Tối"},
    "light": {"en": "Light", "vi": "Sáng"},
    "code": {"en": "Deal code", "vi": "Mã ván"},
    "date": {"en": "Date", "vi": "Ngày"},
    "close": {"en": "Close", "vi": "Đóng"},
    "unlimited": {"en": "∞", "vi": "∞"},
    "keys": {
        "en": "Keys: arrows move, Enter taps, D draws, Z undoes, R redoes, H hint, "
        "W chance to win, F finish (when offered), P pause, N new deal, ? how to play",
        "vi": "Phím: mũi tên di chuyển, Enter chạm, D rút bài, Z hoàn tác, R làm lại, "
        "H gợi ý, W cơ hội thắng, F tự hoàn tất (khi được mời), P tạm dừng, N ván mới, "
        "? cách chơi",
    },
    "playing": {"en": "Playing", "vi": "Đang chơi"},
    "won": {"en": "Won", "vi": "Thắng"},
    "no moves": {"en": "No moves", "vi": "Hết nước đi"},
    "assisted": {"en": "assisted", "vi": "có trợ giúp"},
    "stock": {"en": "Stock", "vi": "Nọc"},
    "waste": {"en": "Waste", "vi": "Bài bỏ"},
    "pyramid": {"en": "Pyramid", "vi": "Kim tự tháp"},
    "connecting": {"en": "Connecting…", "vi": "Đang kết nối…"},
    "disconnected": {
        "en": "Connection lost: reconnecting…",
        "vi": "Mất kết nối: đang kết nối lại…",
    },
    "next_profile": {
        "en": "The game changes from the next deal.",
        "vi": "Kiểu chơi sẽ đổi từ ván sau.",
    },
    "howto": {"en": "How to play", "vi": "Cách chơi"},
    "keys_title": {"en": "Keys", "vi": "Phím"},
    "welcome": {"en": "New to Pyramid?", "vi": "Lần đầu chơi Kim tự tháp?"},
    "removed": {"en": "Removed", "vi": "Đã loại"},
    "redeals_left": {"en": "Redeals left", "vi": "Lượt chia lại còn"},
    # under the stock, in its pile's 16 columns
    "redeals_left_n": {"en": "Redeals left {n}", "vi": "Còn {n} lượt chia"},
    "turn_over": {"en": "Tap to turn the waste over", "vi": "Chạm để lật lại chồng bài bỏ"},
    "was_hidden": {
        "en": "The clock stopped while this tab was hidden.",
        "vi": "Đồng hồ đã dừng khi thẻ này bị ẩn.",
    },
    "replay": {"en": "Replay this deal", "vi": "Chơi lại ván này"},
    "look": {"en": "Look at the table", "vi": "Xem bàn bài"},
    "best_of": {"en": "Best of this game type", "vi": "Thành tích tốt nhất của kiểu chơi"},
    "recorded": {"en": "Recorded in your statistics.", "vi": "Đã ghi vào thống kê của bạn."},
    "replace_game": {
        "en": "A game is under way: leave it for this deal?"
        " (It counts as abandoned in the statistics.)",
        "vi": "Ván đang chơi dở: bỏ ván này để chơi ván kia? (Thống kê tính là bỏ dở.)",
    },
    "leave_for_new": {
        "en": "A game is under way: leave it for a new deal?"
        " (It counts as abandoned in the statistics.)",
        "vi": "Ván đang chơi dở: bỏ ván này để chơi ván mới? (Thống kê tính là bỏ dở.)",
    },
    "leave_for_restart": {
        "en": "Start this deal again? (The game so far counts as abandoned in the statistics.)",
        "vi": "Chơi lại ván này từ đầu? (Ván đang chơi được tính là bỏ dở trong thống kê.)",
    },
    "rate_limited": {
        "en": "Too many requests: slow down a little.",
        "vi": "Quá nhiều yêu cầu: chậm lại một chút.",
    },
    "games": {"en": "Games", "vi": "Số ván"},
    "wins": {"en": "Wins", "vi": "Thắng"},
    "win_rate": {"en": "Win rate", "vi": "Tỉ lệ thắng"},
    "best_score": {"en": "Best score", "vi": "Điểm cao nhất"},
    "fewest_moves": {"en": "Fewest moves", "vi": "Ít nước đi nhất"},
    "fastest_win": {"en": "Fastest win", "vi": "Thắng nhanh nhất"},
    "current_streak": {"en": "Current streak", "vi": "Chuỗi thắng hiện tại"},
    "best_streak": {"en": "Best streak", "vi": "Chuỗi thắng dài nhất"},
    "no_scores": {"en": "No wins yet.", "vi": "Chưa có ván thắng."},
    "suit_s": {"en": "spades", "vi": "bích"},
    "suit_h": {"en": "hearts", "vi": "cơ"},
    "suit_d": {"en": "diamonds", "vi": "rô"},
    "suit_c": {"en": "clubs", "vi": "chuồn"},
    "stock_top": {"en": "Stock top", "vi": "Lá trên nọc"},
    # the browser game's names for screen readers: a card is "{rank} of {suit}, {state}"
    "rank_A": {"en": "Ace", "vi": "Át"},
    "rank_J": {"en": "Jack", "vi": "Bồi"},
    "rank_Q": {"en": "Queen", "vi": "Đầm"},
    "rank_K": {"en": "King", "vi": "Già"},
    "card_name": {"en": "{rank} of {suit}", "vi": "{rank} {suit}"},
    "card_free": {"en": "free", "vi": "chơi được"},
    "card_blocked": {"en": "blocked", "vi": "bị đè"},
    "card_selected": {"en": "selected", "vi": "đang chọn"},
    "card_hinted": {"en": "hinted", "vi": "được gợi ý"},
    "on_waste": {"en": "on the waste", "vi": "trên bài bỏ"},
    "pile_empty": {"en": "empty", "vi": "trống"},
    "table": {"en": "Table", "vi": "Bàn bài"},
    "sounds": {"en": "Sounds", "vi": "Âm thanh"},
    "finish": {"en": "Finish", "vi": "Tự hoàn tất"},
    # the daily deal, the choice of how hard, the statistics' panel
    "daily": {"en": "Daily deal", "vi": "Ván hằng ngày"},
    "daily_badge": {"en": "Daily deal {date}", "vi": "Ván hằng ngày {date}"},
    "new_deals": {"en": "New deals", "vi": "Ván mới"},
    "level_any": {"en": "Any", "vi": "Bất kỳ"},
    "level_easy": {"en": "Easy", "vi": "Dễ"},
    "level_medium": {"en": "Medium", "vi": "Vừa"},
    "level_hard": {"en": "Hard", "vi": "Khó"},
    "level_very_hard": {"en": "Very hard", "vi": "Rất khó"},
    "level_expert": {"en": "Expert", "vi": "Chuyên gia"},
    "level_unwinnable": {"en": "Cannot be won", "vi": "Không thể thắng"},
    "daily_played": {"en": "Daily deals played", "vi": "Ván hằng ngày đã chơi"},
    "daily_won": {"en": "Daily deals won", "vi": "Ván hằng ngày đã thắng"},
    "daily_streak": {"en": "Daily streak", "vi": "Chuỗi ngày thắng"},
    "daily_best_streak": {"en": "Best daily streak", "vi": "Chuỗi ngày thắng dài nhất"},
    "by_difficulty": {"en": "By difficulty", "vi": "Theo độ khó"},
    "win_rate_chart": {
        "en": "Win rate by difficulty: {rates}",
        "vi": "Tỉ lệ thắng theo độ khó: {rates}",
    },
    "recent_games": {"en": "Recent games", "vi": "Các ván gần đây"},
    "result": {"en": "Result", "vi": "Kết quả"},
    "result_won": {"en": "won", "vi": "thắng"},
    "result_lost": {"en": "lost", "vi": "thua"},
    "result_abandoned": {"en": "abandoned", "vi": "bỏ dở"},
    "hints_used": {"en": "Hints", "vi": "Gợi ý"},
    "no_games": {"en": "No games yet.", "vi": "Chưa có ván nào."},
    "reset_stats": {"en": "Reset statistics", "vi": "Xoá thống kê"},
    "reset_ask": {
        "en": "Delete every game recorded of {game}? This cannot be undone.",
        "vi": "Xoá mọi ván đã ghi của {game}? Không thể hoàn tác.",
    },
    "reset_done": {"en": "{n} games deleted.", "vi": "Đã xoá {n} ván."},
    "copy_link": {"en": "Copy link", "vi": "Chép liên kết"},
    "copy_code": {"en": "Copy code", "vi": "Chép mã"},
    "copied": {"en": "Copied: {text}", "vi": "Đã chép: {text}"},
    "copy_this": {"en": "Copy this: {text}", "vi": "Hãy chép: {text}"},
    "skip_cascade": {
        "en": "You won! Press any key or click to skip.",
        "vi": "Bạn thắng! Nhấn phím bất kỳ hoặc bấm để bỏ qua.",
    },
    "n_cards": {"en": "cards", "vi": "lá"},
    "n_card": {"en": "card", "vi": "lá"},
    "paused_hint": {"en": "Paused: press P to go on", "vi": "Tạm dừng: bấm P để tiếp tục"},
    "tui_new_deal": {"en": "N new deal", "vi": "N ván mới"},
    "tui_undo": {"en": "Z undo", "vi": "Z hoàn tác"},
    "tui_replay": {"en": "X replay this deal", "vi": "X chơi lại ván này"},
    "statistics": {"en": "Statistics", "vi": "Thống kê"},
    "key_draw": {"en": "Draw", "vi": "Rút"},
    "key_pause": {"en": "Pause", "vi": "Dừng"},
    "key_new_deal": {"en": "New", "vi": "Mới"},
    "key_enter_code": {"en": "Code", "vi": "Mã"},
    "key_stats": {"en": "Stats", "vi": "Thống kê"},
    "key_help": {"en": "Help", "vi": "Giúp"},  # (short: the footer keeps to 80 columns)
    "key_quit": {"en": "Quit", "vi": "Thoát"},
    "first_visit": {
        "en": "New here? Press ? for how to play",
        "vi": "Lần đầu chơi? Bấm ? để xem cách chơi",
    },
    "best_wins": {"en": "Best wins", "vi": "Các ván thắng hay nhất"},
    "esc_close": {"en": "Esc to close", "vi": "Esc để đóng"},
    "deal": {"en": "Deal", "vi": "Ván"},
    "hints": {"en": "Hints", "vi": "Gợi ý"},
    "yes": {"en": "yes", "vi": "có"},
    # the terminal game's own
    "tui_quit": {"en": "Q quit", "vi": "Q thoát"},
    "tui_yes_no": {"en": "Y yes   N no", "vi": "Y có   N không"},
    "tui_code_title": {
        "en": "A deal code (such as PY1-N-AAAAAAS) or 52 cards:",
        "vi": "Mã ván (ví dụ PY1-N-AAAAAAS) hoặc 52 lá bài:",
    },
    "tui_code_keys": {"en": "Enter to play it, Esc to cancel", "vi": "Enter để chơi, Esc để thôi"},
    "tui_code_empty": {
        "en": "Type or paste a deal code or 52 cards",
        "vi": "Hãy gõ hoặc dán mã ván hay 52 lá bài",
    },
    "stats_off": {"en": "Statistics are off: {why}", "vi": "Thống kê đang tắt: {why}"},
    "stats_file_unusable": {
        "en": "the file {path} cannot be used",
        "vi": "không dùng được tệp {path}",
    },
    "not_remembered": {
        "en": "Cannot remember the setting: {why}",
        "vi": "Không ghi nhớ được thiết lập: {why}",
    },
    "save_left": {
        "en": "That file is left as it is; this game is saved to {path}",
        "vi": "Tệp đó được giữ nguyên; ván này được lưu vào {path}",
    },
    "no_free_slot": {
        "en": "No free file for an autosave: this game is not saved",
        "vi": "Không còn tệp trống để tự lưu: ván này không được lưu",
    },
    "cannot_save_to": {
        "en": "Cannot save to {path}: {why}",
        "vi": "Không lưu được vào {path}: {why}",
    },
    "saved_other_game": {
        "en": "The saved game is a {saved} game: N starts a new {asked} game",
        "vi": "Ván đã lưu là ván {saved}: N bắt đầu một ván {asked} mới",
    },
    "tui_look": {"en": "Esc the table", "vi": "Esc xem bàn bài"},
    # the terminal game's answer to Ctrl+C (Textual's own says it in English)
    "tui_quit_title": {"en": "Do you want to quit?", "vi": "Bạn muốn thoát?"},
    "tui_quit_how": {
        "en": "Press Q (or Ctrl+Q) to quit: the game is saved",
        "vi": "Bấm Q (hoặc Ctrl+Q) để thoát: ván bài được lưu lại",
    },
    # the terminal game: how hard new deals are (E), fair hints (F) in the help, the
    # statistics' pages (S), the finish offered (A)
    "tui_new_deals_level": {"en": "New deals: {level}", "vi": "Ván mới: {level}"},
    "tui_on": {"en": "on", "vi": "bật"},
    "tui_off": {"en": "off", "vi": "tắt"},
    "tui_summary": {"en": "Summary", "vi": "Tổng quan"},
    "tui_stats_keys": {
        "en": "← → pages   R reset   Esc close",
        "vi": "← → trang   R xoá thống kê   Esc đóng",
    },
    "tui_stats_keys_no_reset": {"en": "← → pages   Esc close", "vi": "← → trang   Esc đóng"},
    "tui_finish_key": {
        "en": "Press A to let the game finish itself",
        "vi": "Bấm A để ván bài tự hoàn tất",
    },
}
# the same words as the session's messages, not a second copy of them
LABELS.update(
    {
        "end_won": CATALOGUE["won"],
        "end_no_moves": CATALOGUE["no_moves"],
        "end_no_chance": CATALOGUE["no_chance"],
        "card_list": CATALOGUE["card_list"],
    }
)
# the footer's key names that are the buttons' words
LABELS.update(
    {
        f"key_{name}": LABELS[name]
        for name in ("undo", "redo", "hint", "restart", "language", "fair_hints", "chance")
    }
)


def label(key: str, lang: str = "en", **args: Any) -> str:
    """The label ``key`` in ``lang``, its ``{arguments}`` filled in."""
    text = LABELS[key][lang]
    return text.format(**args) if args else text


def labels(lang: str) -> dict[str, str]:
    """Every label in ``lang`` (what ``hello`` sends for each language)."""
    return {key: texts[lang] for key, texts in LABELS.items()}


assert all(set(texts) == set(LANGUAGES) for texts in LABELS.values())
