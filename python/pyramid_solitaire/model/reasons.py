"""Why a player's input was refused, in words, in English and Vietnamese.

Each reason a player can meet has a stable code and one text per language here, the one
place they live: a pasted deal code or card list that cannot be read, and a move the rules
refuse. The library raises :class:`InputError` for them: a ``ValueError`` whose message is the
English text, which also carries the code and its arguments, so a frontend can say the same
thing in the player's language.

>>> from pyramid_solitaire import Deal
>>> try:
...     Deal.parse("PY1-N-AAAAAA")
... except InputError as e:
...     print(e.reason, "|", e.text("vi"))
code_digits_length | mã ván 'PY1-N-AAAAAA': phần số ván 'AAAAAA' phải có 7 chữ cái A-Z, ở đây có 6
"""

from __future__ import annotations

from typing import Any

_FORMAT = {
    "en": "PY1-<rules letter>-<7 letters A-Z>, e.g. PY1-N-AAAAAAS",
    "vi": "PY1-<chữ cái luật>-<7 chữ cái A-Z>, ví dụ PY1-N-AAAAAAS",
}
_CARD = {
    "en": "a rank from A23456789TJQK (or 10) then a suit from cdhs or ♣♦♥♠",
    "vi": "một hạng trong A23456789TJQK (hoặc 10) rồi một chất trong cdhs hoặc ♣♦♥♠",
}

#: code -> {language: text}; a text names its arguments as ``{name}`` (a language may leave
#: one out).
REASONS: dict[str, dict[str, str]] = {
    # a card list
    "card_token": {
        "en": "{token} is not a card: expected " + _CARD["en"],
        "vi": "{token} không phải là một lá bài: cần " + _CARD["vi"],
    },
    "list_token": {
        "en": "token {pos} {token} is not a card: expected " + _CARD["en"],
        "vi": "mục thứ {pos}, {token}, không phải là một lá bài: cần " + _CARD["vi"],
    },
    "list_token_in": {
        "en": "token {pos} {token} (in {run}) is not a card: expected " + _CARD["en"],
        "vi": "mục thứ {pos}, {token} (trong {run}), không phải là một lá bài: cần " + _CARD["vi"],
    },
    "list_too_long": {
        "en": "a card list is 52 tokens, got a text of {length:,} characters",
        "vi": "danh sách lá bài gồm 52 lá, ở đây là một đoạn {length:,} ký tự",
    },
    "card_twice": {
        "en": "card {card} appears twice (tokens {first} and {second}); each of "
        "the 52 cards must appear once",
        "vi": "lá {card} xuất hiện hai lần (mục {first} và {second}); mỗi lá trong "
        "52 lá phải xuất hiện đúng một lần",
    },
    "card_count": {
        "en": "expected {count} cards, got {got}",
        "vi": "cần {count} lá bài, ở đây có {got}",
    },
    "card_count_missing": {
        "en": "expected {count} cards, got {got} (missing: {missing})",
        "vi": "cần {count} lá bài, ở đây có {got} (thiếu: {missing})",
    },
    # a deal code
    "code_not_ascii": {
        "en": "deal code {code}: {char!r} is not allowed; a code is ASCII: " + _FORMAT["en"],
        "vi": "mã ván {code}: không dùng được {char!r}; mã ván chỉ gồm ký tự "
        "ASCII: " + _FORMAT["vi"],
    },
    "code_malformed": {
        "en": "deal code {code} is malformed: expected " + _FORMAT["en"],
        "vi": "mã ván {code} sai dạng: cần " + _FORMAT["vi"],
    },
    "code_version": {
        "en": "deal code {code}: unknown version {version} (expected PY1)",
        "vi": "mã ván {code}: không biết phiên bản {version} (cần PY1)",
    },
    "code_letter_length": {
        "en": "deal code {code}: the rules part {letter} must be one letter",
        "vi": "mã ván {code}: phần luật {letter} phải là một chữ cái",
    },
    "rules_letter": {
        "en": "unknown rules letter {letter}: expected one of {letters} or X",
        "vi": "không biết chữ cái luật {letter}: cần một trong {letters} hoặc X",
    },
    "code_digits_length": {
        "en": "deal code {code}: the deal number {digits} must be 7 letters A-Z, got {length}",
        "vi": "mã ván {code}: phần số ván {digits} phải có 7 chữ cái A-Z, ở đây có {length}",
    },
    "code_digit": {
        "en": "deal code {code}: character {pos} of the deal number, {char!r}, is not a letter A-Z",
        "vi": "mã ván {code}: ký tự thứ {pos} của số ván, {char!r}, không phải chữ cái A-Z",
    },
    "code_custom_rules": {
        "en": "deal code {code} was named under custom rules (letter X): name the game "
        "to play it under with {flag}",
        "vi": "mã ván {code} thuộc luật tùy chỉnh (chữ X): hãy chọn kiểu chơi bằng {flag} để chơi",
    },
    "code_other_rules": {
        "en": "deal code {code} names the {named} rules (letter {letter}), but "
        "{flag} {profile} plays the {rules} rules: drop {flag} to play "
        "the code's game",
        "vi": "mã ván {code} thuộc luật {named} (chữ {letter}), nhưng {flag} "
        "{profile} chơi luật {rules}: bỏ {flag} để chơi kiểu chơi của "
        "mã ván",
    },
    "deal_number": {
        "en": "a deal number is a whole number 0..{top:,}, got {got}",
        "vi": "số ván là một số nguyên 0..{top:,}, ở đây là {got}",
    },
    # a move's text that cannot be read
    "move_text": {
        "en": "{text} is not a move: expected a King ('Kd'), a pair ('Tc+3s'), 'draw' or 'recycle'",
        "vi": "{text} không phải là một nước đi: cần một lá K ('Kd'), một cặp ('Tc+3s'), "
        "'draw' hoặc 'recycle'",
    },
    "move_card": {
        "en": "move {move}: {token} is not a card: expected " + _CARD["en"],
        "vi": "nước đi {move}: {token} không phải là một lá bài: cần " + _CARD["vi"],
    },
    # a move the rules refuse (why a pair, a draw or a recycle is not legal here)
    "move_game_over": {"en": "the game is over ({status})", "vi": "ván bài đã kết thúc"},
    "draw_recycle_first": {
        "en": "the stock is empty: recycle the waste",
        "vi": "nọc đã hết: hãy lật lại chồng bài bỏ",
    },
    "draw_all_empty": {
        "en": "the stock is empty and the waste is empty",
        "vi": "nọc và chồng bài bỏ đều đã hết",
    },
    "draw_no_recycles": {
        "en": "the stock is empty and no recycles are left",
        "vi": "nọc đã hết và không còn lượt chia lại",
    },
    "recycle_stock_left": {
        "en": "the stock is not empty yet: draw",
        "vi": "nọc vẫn còn bài: hãy rút",
    },
    "recycle_waste_empty": {"en": "the waste is empty", "vi": "chồng bài bỏ đã hết"},
    "recycle_none_left": {
        "en": "no recycles are left (redeals={redeals})",
        "vi": "không còn lượt chia lại",
    },
    "card_removed": {"en": "{card} was already removed", "vi": "lá {card} đã được bỏ rồi"},
    "card_covered_by": {
        "en": "{card} is covered by {other} (pairing a card with the card "
        "covering it needs pair_with_covering)",
        "vi": "lá {card} bị lá {other} đè lên (luật này không cho ghép một lá "
        "với lá đang đè lên nó)",
    },
    "card_blocked": {"en": "{card} is blocked by {covers}", "vi": "lá {card} bị {covers} chặn"},
    "card_in_stock": {
        "en": "{card} is in the stock (the next card to draw is {next})",
        "vi": "lá {card} còn trong nọc (lá rút tiếp theo là {next})",
    },
    "stock_top_not_playable": {
        "en": "{card} is in the stock (the next card to draw is {next}); "
        "the stock's top card is not playable under these rules",
        "vi": "lá {card} còn trong nọc; luật này không cho dùng lá trên cùng của nọc",
    },
    "waste_top_two": {
        "en": "{card} lies under {top} on the waste (pairing the top two waste "
        "cards needs pair_waste_top_two)",
        "vi": "lá {card} nằm dưới lá {top} trong chồng bài bỏ (luật này không cho "
        "ghép hai lá trên cùng của chồng bài bỏ)",
    },
    "waste_under": {
        "en": "{card} is in the waste under {top}: only the top card is available",
        "vi": "lá {card} nằm dưới lá {top} trong chồng bài bỏ: chỉ dùng được lá trên cùng",
    },
    "not_legal": {"en": "not a legal move here", "vi": "không đi được nước này ở đây"},
}

#: the word joining a list of cards ("5♠ and 9♦")
_AND = {"en": " and ", "vi": " và "}


def reason_text(reason: str, lang: str = "en", **args: Any) -> str:
    """The text of ``reason`` in ``lang`` (``"en"`` or ``"vi"``) with its arguments; a list
    of cards (``covers``) is joined with the language's "and"."""
    args = {
        k: _AND[lang].join(map(str, v)) if isinstance(v, (list, tuple)) else v
        for k, v in args.items()
    }
    return REASONS[reason][lang].format(**args)


class InputError(ValueError):
    """A refused input, with its reason: ``reason`` (a code of :data:`REASONS`) and
    ``params`` (its arguments). ``str()`` is the English text; :meth:`text` any language."""

    def __init__(self, reason: str, **params: Any) -> None:
        self.reason, self.params = reason, params
        super().__init__(reason_text(reason, "en", **params))

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``."""
        return reason_text(self.reason, lang, **self.params)

    def __reduce__(self) -> Any:  # pickled (a worker's error) with its reason
        return (_rebuild, (self.reason, self.params))


def _rebuild(reason: str, params: dict[str, Any]) -> InputError:
    return InputError(reason, **params)


def error_text(error: BaseException, lang: str = "en") -> str:
    """What to tell a player about ``error``: an :class:`InputError` in ``lang``, any other
    error's own (English) message."""
    return error.text(lang) if isinstance(error, InputError) else " ".join(str(error).split())
