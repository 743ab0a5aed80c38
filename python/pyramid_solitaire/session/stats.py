"""Statistics of finished games in SQLite: one file in the user's data directory
(platformdirs), or any path given. WAL mode, so readers never block the writer; each record
is one short transaction, so two processes writing at once lose nothing.

>>> import tempfile, os
>>> store = StatsStore(os.path.join(tempfile.mkdtemp(), "stats.sqlite3"))
>>> store.summary()["games"]
0
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..runtime import args as _args
from ..runtime.atomic import folder_problem

if TYPE_CHECKING:  # pragma: no cover
    from .session import Session

SCHEMA_VERSION = 2
LOCK_SECONDS = 30  # how long a writer waits for another one
RESULTS = ("won", "lost", "abandoned")

# Each entry takes the schema from the version before it to its own (index + 1).
_MIGRATIONS = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        code TEXT,                 -- the deal code, NULL for a card list
        cards TEXT NOT NULL,       -- the 52 tokens: every deal is named exactly
        profile TEXT NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'abandoned')),
        score INTEGER NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        pyramid_removed INTEGER NOT NULL,
        difficulty REAL,
        assisted INTEGER NOT NULL,
        finished_at TEXT NOT NULL, -- UTC, ISO 8601
        streak INTEGER NOT NULL    -- wins in a row of this profile, this game included
    );
    CREATE INDEX games_profile ON games (profile, id);
    CREATE INDEX games_cards ON games (cards, profile);
    """,
    # 2: the hints the player took, and the date of a daily deal (session/daily.py)
    """
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN daily TEXT;  -- YYYY-MM-DD: a daily deal's date, else NULL
    CREATE INDEX games_daily ON games (profile, daily) WHERE daily IS NOT NULL;
    """,
]
#: What an older file's rows read as for the columns a later migration added (a read-only
#: store never migrates the file it reads): by the schema version that added them.
_ADDED = {2: {"hints": "0", "daily": "NULL"}}


def _retry(step: Any) -> Any:
    """``step()``, again while another process holds the file's lock (opening a file that
    another process is creating, or switching it to WAL, is not covered by the busy
    timeout)."""
    deadline = time.monotonic() + LOCK_SECONDS
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _explained(method: Any) -> Any:
    """SQLite's errors while reading or writing an opened file become one ValueError that
    names the file (StatsStore._damaged)."""

    @functools.wraps(method)
    def wrapper(self: StatsStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (
            sqlite3.DatabaseError,
            UnicodeDecodeError,  # text that is not UTF-8
            OverflowError,
        ) as e:  # an integer past 64 bits
            raise self._damaged(e) from None

    return wrapper


_NUMBER = (int, float)


def _typed(what: str, value: Any, kinds: tuple[type, ...], null: bool = False) -> Any:
    """``value`` when it is of ``kinds`` (SQLite lets another tool store text or bytes in
    any column): else the file is damaged (a DatabaseError, which ``_explained`` turns into
    a ValueError naming the file)."""
    if (value is None and null) or (isinstance(value, kinds) and not isinstance(value, bool)):
        return value
    raise sqlite3.DatabaseError(
        f"the column {what} holds {type(value).__name__} {_args.excerpt(value, 30)}"
    )


def default_path() -> Path:
    """``stats.sqlite3`` in the user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("pyramid-solitaire", appauthor=False)) / "stats.sqlite3"


#: ``PRAGMA application_id`` of the files this package creates ("PyrS"); files made before it
#: was set have 0, and are told apart by their schema.
APPLICATION_ID = 0x50797253
_COLUMNS = {
    "id",
    "code",
    "cards",
    "profile",
    "result",
    "score",
    "moves",
    "seconds",
    "pyramid_removed",
    "difficulty",
    "assisted",
    "finished_at",
    "streak",
}


def _uri(path: Path, **query: str) -> str:
    """An SQLite URI for ``path`` (any characters in the name) with ``query``."""
    from urllib.parse import quote, urlencode

    return "file:" + quote(str(path.absolute()).replace(os.sep, "/")) + "?" + urlencode(query)


class StatsStore:
    """The statistics file. ``path``: default :func:`default_path`.

    Opening checks the file before anything is written to it: a file that is not SQLite,
    or another program's SQLite file (whatever its ``user_version``), or statistics of a
    newer schema, is a ``ValueError`` and is left byte for byte as it was. The folder must
    exist (the default one is created when recording), and be a folder.

    ``read_only=True`` (the ``stats`` command, the protocol's ``stats`` op): nothing is ever
    written or created; a missing file reads as no games, and a file or folder that cannot
    be written is read all the same (``writable`` is then False). Without it, a file that
    cannot be written is a ``ValueError`` saying so.
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False
    ) -> None:
        given = path is not None
        self.path = default_path() if path is None else _args.path_name("the statistics file", path)
        self.read_only = read_only
        folder = self.path.parent
        exists = self._check_path(folder, create=not read_only and not given)
        self.exists = exists
        empty = True
        self.writable = exists and os.access(self.path, os.W_OK) and os.access(folder, os.W_OK)
        try:
            if exists:  # looked at read-only before anything else
                probe = self._connect_read_only()
                try:
                    empty = self._check(probe)
                    if not read_only:  # sound throughout before a byte is written
                        problems = [row[0] for row in probe.execute("PRAGMA quick_check(3)")]
                        if problems != ["ok"]:
                            raise sqlite3.DatabaseError("; ".join(problems))
                finally:
                    probe.close()
            if read_only and (not exists or empty):  # nothing recorded there yet
                self._db = sqlite3.connect(":memory:", isolation_level=None)
                self._migrate()
            elif read_only:
                self._db = self._connect_read_only()
            else:
                if exists and not self.writable:
                    raise ValueError(f"{self.path} is read-only: games cannot be recorded in it")
                self._db = sqlite3.connect(self.path, timeout=LOCK_SECONDS, isolation_level=None)
                _retry(lambda: self._check(self._db))  # another process may have begun it
                _retry(lambda: self._db.execute("PRAGMA journal_mode=WAL"))
                _retry(self._migrate)
                self.exists = self.writable = True
            self._version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.OperationalError as e:
            if "locked" in str(e):
                raise ValueError(
                    f"{self.path} stayed locked by another process for {LOCK_SECONDS} s"
                ) from None
            raise ValueError(f"{self.path} cannot be used as a statistics file ({e})") from None
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # SQLite's text, damaged
            raise ValueError(
                f"{self.path} is not a pyramid-solitaire statistics file "
                f"({_args.excerpt(str(e), 120)}); it is left as it is"
            ) from None

    def _check_path(self, folder: Path, create: bool) -> bool:
        """Whether the file exists; ValueError for a path that cannot hold one (a folder
        that is a file, or missing where it must not be created)."""
        if self.path.is_dir():
            raise ValueError(f"{self.path} is a folder, not a statistics file")
        if self.path.exists():
            if not self.path.is_file():
                raise ValueError(f"{self.path} is not a regular file")
            return True
        if folder.is_dir():
            return False
        problem = folder_problem(self.path)
        if problem is not None:
            raise ValueError(f"{self.path}: {problem}")
        if not create:
            if self.read_only:
                return False  # nothing recorded there yet
            raise ValueError(f"{self.path}: the folder {folder} does not exist")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(
                f"{self.path}: cannot create the folder {folder} ({e.strerror or e})"
            ) from None
        return False

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection that creates nothing beside the file: with a write-ahead
        log and its index beside it (another process has it open), ``mode=ro``, which reads
        the log; else the file is read as it is (``immutable=1``). A log left without its
        index (a crash) is then not read: the file reads as last checkpointed, and the next
        process that writes recovers the log."""
        if not all(self.path.with_name(self.path.name + end).exists() for end in ("-wal", "-shm")):
            return sqlite3.connect(_uri(self.path, immutable="1"), uri=True, isolation_level=None)
        try:
            db = sqlite3.connect(
                _uri(self.path, mode="ro"), uri=True, timeout=LOCK_SECONDS, isolation_level=None
            )
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "not a database" in str(e):
                raise
            return sqlite3.connect(_uri(self.path, immutable="1"), uri=True, isolation_level=None)

    def _check(self, db: sqlite3.Connection) -> bool:
        """ValueError unless ``db`` is empty (then True) or holds statistics this program
        reads (False)."""
        # One statement, so one snapshot: another process may be creating the schema (its
        # tables and its version are committed together).
        version, app, tables = db.execute(
            "SELECT (SELECT user_version FROM pragma_user_version), "
            "(SELECT application_id FROM pragma_application_id), "
            "(SELECT group_concat(type || ' ' || name, ', ') FROM sqlite_master)"
        ).fetchone()
        if version == 0 and not tables and app in (0, APPLICATION_ID):
            return True  # empty (no table, view, index or trigger): new
        columns = {row[1] for row in db.execute("SELECT * FROM pragma_table_info('games')")}
        ours = app in (0, APPLICATION_ID) and version >= 1 and _COLUMNS <= columns
        if not ours:
            raise ValueError(
                f"{self.path} is another program's SQLite file (user_version "
                f"{version}: {_args.excerpt(tables or 'no tables', 80)}), not "
                f"pyramid-solitaire statistics; it is left as it is"
            )
        if version > SCHEMA_VERSION:
            raise ValueError(
                f"{self.path}: statistics schema {version} is newer than this "
                f"program reads ({SCHEMA_VERSION}): update pyramid-solitaire"
            )
        return False

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for target in range(version + 1, SCHEMA_VERSION + 1):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                current = self._db.execute("PRAGMA user_version").fetchone()[0]
                if current < target:  # another process may have migrated meanwhile
                    if current == 0:
                        self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    for statement in _MIGRATIONS[target - 1].split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {target}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _col(self, name: str) -> str:
        """The column ``name`` in a query: what an older file's rows read as when the file
        predates it (a read-only store reads a file as it is, never migrating it)."""
        for version, columns in _ADDED.items():
            if name in columns and self._version < version:
                return f"{columns[name]} AS {name}"
        return name

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> StatsStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _damaged(self, e: Exception) -> ValueError:
        """A file whose schema looked right but whose pages do not read (damaged on disk,
        or cut short): one clear error instead of SQLite's."""
        if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
            return ValueError(f"{self.path} stayed locked by another process for {LOCK_SECONDS} s")
        text = " ".join(str(e).split())
        text = text if len(text) <= 120 else text[:110] + "..."
        return ValueError(
            f"{self.path} is damaged: {text} (it is left as it is; move it "
            f"aside to start new statistics)"
        )

    # ---- writing -----------------------------------------------------------------------------
    @_explained
    def record(
        self, session: Session, result: str | None = None, difficulty: float | None = None
    ) -> int:
        """Record a game: ``result`` ``won``, ``lost`` or ``abandoned`` (default: from the
        session's status, ``abandoned`` while it is still playing), with the hints the player
        took and, for a daily deal, its date. Returns its row id."""
        if self.read_only:
            raise ValueError(f"{self.path} was opened read-only: games cannot be recorded")
        from ..model.game import Status

        status = session.status
        if result is None:
            result = {Status.WON: "won", Status.NO_MOVES: "lost"}.get(status, "abandoned")
        if result not in RESULTS:
            raise ValueError(
                f"result must be one of {', '.join(RESULTS)}, got {_args.excerpt(result)}"
            )
        game = session.game
        if difficulty is None:
            difficulty = session.difficulty.level
        row = (
            game.code,
            game.deal.to_cards(),
            session.profile.name,
            result,
            session.score,
            session.moves,
            round(session.seconds, 3),
            game.pyramid_removed,
            None if difficulty is None else _args.real("difficulty", difficulty, positive=False),
            int(session.assisted),
            _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            int(session.hints),
            None if session.daily is None else session.daily.isoformat(),
        )
        self._db.execute("BEGIN IMMEDIATE")  # the streak reads the profile's last game
        try:
            last = self._db.execute(
                "SELECT streak FROM games WHERE profile = ? ORDER BY id DESC LIMIT 1",
                (session.profile.name,),
            ).fetchone()
            before = _typed("streak", last[0], (int,)) if last else 0
            streak = before + 1 if result == "won" else 0
            cur = self._db.execute(
                "INSERT INTO games (code, cards, profile, result, score, moves, seconds, "
                "pyramid_removed, difficulty, assisted, finished_at, hints, daily, streak) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*row, streak),
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return int(cur.lastrowid or 0)

    @_explained
    def reset(self, profile: str | None = None) -> int:
        """Delete the games recorded: all of them, or ``profile``'s only (the other
        profiles' games and streaks are kept). Returns how many were deleted."""
        if self.read_only:
            raise ValueError(f"{self.path} was opened read-only: games cannot be deleted")
        if profile is not None and not isinstance(profile, str):
            raise ValueError(f"profile is a profile's name, got {_args.excerpt(profile)}")
        where, args = self._where(profile, None)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            cur = self._db.execute("DELETE FROM games" + where, args)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return int(cur.rowcount)

    # ---- queries -----------------------------------------------------------------------------
    @_explained
    def summary(
        self,
        profile: str | None = None,
        deal: str | None = None,
        *,
        today: _dt.date | None = None,
    ) -> dict[str, Any]:
        """Games, wins, win rate, best score, fewest moves and fastest time of a win, and the
        current and best winning streaks; for one profile and/or one deal (a code or card
        list) when given. ``by_difficulty``: games, wins and win rate by the deals'
        difficulty label (every label, in level order); ``daily``: the daily deals' figures
        (:meth:`daily`, ``today`` the date their current streak runs to)."""
        where, args = self._where(profile, deal)
        games, wins, best, fewest, fastest = self._db.execute(
            "SELECT count(*), coalesce(sum(result = 'won'), 0), max(score), "
            "min(CASE WHEN result = 'won' THEN moves END), "
            "min(CASE WHEN result = 'won' THEN seconds END) FROM games" + where,
            args,
        ).fetchone()
        wins = _typed("result", wins, (int,))
        best = _typed("score", best, (int,), null=True)
        fewest = _typed("moves", fewest, (int,), null=True)
        fastest = _typed("seconds", fastest, _NUMBER, null=True)
        if deal is None and profile is not None:  # kept per profile as games are recorded
            (best_streak,) = self._db.execute(
                "SELECT coalesce(max(streak), 0) FROM games" + where, args
            ).fetchone()
            last = self._db.execute(
                "SELECT streak FROM games" + where + " ORDER BY id DESC LIMIT 1", args
            ).fetchone()
            best_streak = _typed("streak", best_streak, (int,))
            current = _typed("streak", last[0], (int,)) if last else 0
        else:  # across profiles or for one deal
            best_streak = current = 0
            for (won,) in self._db.execute(
                "SELECT result = 'won' FROM games" + where + " ORDER BY id", args
            ):
                current = current + 1 if won else 0
                best_streak = max(best_streak, current)
        return {
            "profile": profile,
            "deal": deal,
            "games": games,
            "wins": wins,
            "win_rate": wins / games if games else None,
            "best_score": best,
            "fewest_moves": fewest,
            "fastest_win": fastest,
            "current_streak": current,
            "best_streak": best_streak,
            "by_difficulty": self._by_difficulty(where, args),
            "daily": self._daily(where, args, today),
        }

    def _by_difficulty(self, where: str, args: tuple[Any, ...]) -> dict[str, dict[str, Any]]:
        from .difficulty import LABELS

        counts = {level: [0, 0] for level in LABELS}
        for level, games, wins in self._db.execute(
            "SELECT CAST(difficulty AS INTEGER), count(*), coalesce(sum(result = 'won'), 0) "
            "FROM games" + (where + " AND" if where else " WHERE") + " difficulty IS NOT NULL "
            "GROUP BY 1",
            args,
        ):
            level = _typed("difficulty", level, (int,))
            if level in counts:  # (a level no rating gives is no label's)
                counts[level] = [_typed("result", games, (int,)), _typed("result", wins, (int,))]
        return {
            LABELS[level]: {"games": g, "wins": w, "win_rate": w / g if g else None}
            for level, (g, w) in counts.items()
        }

    @_explained
    def daily(self, profile: str | None = None, *, today: _dt.date | None = None) -> dict[str, Any]:
        """The daily deals' figures (docs/session.md, "Daily deal"): ``played`` (the dates
        whose daily deal was played), ``won`` (the dates whose daily deal was won at least
        once), ``current_streak`` (won dates in a row up to ``today``, default the local
        date, or up to the day before while today's is not won yet), ``best_streak``,
        ``won_today`` and ``today`` (the date, YYYY-MM-DD). A date is the deal's, not the day
        it was played on. Across profiles (``profile`` None) a date counts as won when some
        profile's daily deal of that date was won."""
        where, args = self._where(profile, None)
        return self._daily(where, args, today)

    def _daily(self, where: str, args: tuple[Any, ...], today: _dt.date | None) -> dict[str, Any]:
        if today is None:
            today = _dt.date.today()
        elif isinstance(today, _dt.datetime):
            today = today.date()
        elif not isinstance(today, _dt.date):
            raise ValueError(f"today is a datetime.date, got {_args.excerpt(today)}")
        from .daily import parse_date

        played, won = set(), set()
        daily = self._col("daily")
        for date, any_won in self._db.execute(
            f"SELECT daily, max(result = 'won') FROM (SELECT {daily}, result FROM games"
            + where
            + ") WHERE daily IS NOT NULL GROUP BY daily",
            args,
        ):
            try:
                day = parse_date(_typed("daily", date, (str,)))
            except ValueError:
                raise sqlite3.DatabaseError(
                    f"the column daily holds {_args.excerpt(date, 30)}, not a date"
                ) from None
            played.add(day)
            if any_won:
                won.add(day)
        best = run = 0
        previous: _dt.date | None = None
        for day in sorted(won):
            run = run + 1 if previous is not None and (day - previous).days == 1 else 1
            best, previous = max(best, run), day
        one = _dt.timedelta(days=1)
        day, current = (today if today in won else today - one), 0
        while day in won:
            current, day = current + 1, day - one
        return {
            "played": len(played),
            "won": len(won),
            "current_streak": current,
            "best_streak": best,
            "won_today": today in won,
            "today": today.isoformat(),
        }

    @_explained
    def best_of(
        self, profile: str, lang: str | None = None, *, today: _dt.date | None = None
    ) -> dict[str, Any]:
        """The best of a game type, as both games show it when a game ends, won or lost
        (docs/session.md, "The best of this game type"): ``games``, ``wins``, ``win_rate``,
        ``best_score`` (the best score of any game; None for a game type without points),
        ``fewest_moves`` and ``fastest_win`` (of a win; None before the first),
        ``current_streak``, ``best_streak``, and ``shown``: the keys the end dialog shows, in
        order (``games``, ``wins``, then each of ``best_score``, ``fewest_moves`` and
        ``fastest_win`` that is not None), each under the label of its name. With ``lang``,
        also ``text``: the line both games show (:func:`best_of_text`)."""
        from ..model.profiles import Profile

        if not isinstance(profile, str):
            raise ValueError(f"profile is a profile's name, got {_args.excerpt(profile)}")
        try:
            points = Profile.preset(profile).scoring.gives_points
        except ValueError:  # a profile of the user's own
            points = True
        s = self.summary(profile, today=today)
        out = {
            "profile": profile,
            "games": s["games"],
            "wins": s["wins"],
            "win_rate": s["win_rate"],
            "best_score": s["best_score"] if points else None,
            "fewest_moves": s["fewest_moves"],
            "fastest_win": s["fastest_win"],
            "current_streak": s["current_streak"],
            "best_streak": s["best_streak"],
        }
        out["shown"] = ["games", "wins"] + [
            key for key in ("best_score", "fewest_moves", "fastest_win") if out[key] is not None
        ]
        if lang is not None:
            out["text"] = best_of_text(out, lang)
        return out

    @_explained
    def history(self, profile: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        """The games recorded last, newest first (of one profile when given): each with
        ``finished_at`` (UTC, ISO 8601), ``profile``, ``result``, ``score``, ``moves``,
        ``seconds``, ``difficulty`` (the deal's label, or None), ``level``, ``hints``,
        ``assisted`` (0 or 1), ``code`` (None for a card list) and ``daily`` (the daily
        deal's date, or None)."""
        from .difficulty import LABELS

        limit = _args.whole("limit", limit, 1, 10_000)
        where, args = self._where(profile, None)
        rows = self._db.execute(
            "SELECT finished_at, profile, result, score, moves, seconds, difficulty, "
            f"{self._col('hints')}, assisted, code, {self._col('daily')} "
            "FROM games" + where + " ORDER BY id DESC LIMIT ?",
            (*args, limit),
        ).fetchall()
        kinds: dict[str, tuple[tuple[type, ...], bool]] = {
            "finished_at": ((str,), False),
            "profile": ((str,), False),
            "result": ((str,), False),
            "score": ((int,), False),
            "moves": ((int,), False),
            "seconds": (_NUMBER, False),
            "level": (_NUMBER, True),
            "hints": ((int,), False),
            "assisted": ((int,), False),
            "code": ((str,), True),
            "daily": ((str,), True),
        }
        out = []
        for row in rows:
            game = {key: _typed(key, value, *kinds[key]) for key, value in zip(kinds, row)}
            level = game["level"]
            game["level"] = None if level is None else int(level)
            game["difficulty"] = LABELS.get(game["level"]) if level is not None else None
            out.append(game)
        return out

    @_explained
    def high_scores(
        self, profile: str | None = None, limit: int = 10, deal: str | None = None
    ) -> list[dict[str, Any]]:
        """The best wins (of one profile and/or one deal when given), ranked by the
        profile's ranking (default: score, then time, then moves); each row has the hints
        the player took and the daily deal's date (None for another deal)."""
        limit = _args.whole("limit", limit, 1, 10_000)
        where, args = self._where(profile, deal)
        order = "score DESC, seconds, moves"
        if profile is not None:
            from ..model.profiles import Profile

            try:
                ranking = Profile.preset(profile).ranking
            except ValueError:
                ranking = ("score", "seconds", "moves")
            order = ", ".join("score DESC" if r == "score" else r for r in ranking)
        rows = self._db.execute(
            "SELECT code, cards, profile, result, score, moves, seconds, assisted, finished_at, "
            f"{self._col('hints')}, {self._col('daily')} "
            "FROM games" + (where + " AND" if where else " WHERE") + " result = 'won' "
            f"ORDER BY {order}, id LIMIT ?",
            (*args, limit),
        ).fetchall()
        kinds: dict[str, tuple[tuple[type, ...], bool]] = {
            "code": ((str,), True),
            "cards": ((str,), False),
            "profile": ((str,), False),
            "result": ((str,), False),
            "score": ((int,), False),
            "moves": ((int,), False),
            "seconds": (_NUMBER, False),
            "assisted": ((int,), False),
            "finished_at": ((str,), False),
            "hints": ((int,), False),
            "daily": ((str,), True),
        }
        return [
            {key: _typed(key, value, *kinds[key]) for key, value in zip(kinds, row)} for row in rows
        ]

    @staticmethod
    def _where(profile: str | None, deal: Any) -> tuple[str, tuple[Any, ...]]:
        parts, args = [], []
        if deal is not None:
            parsed, profiles = deal_filter(deal, profile)
            parts.append("cards = ?")
            args.append(parsed.to_cards())
            if profile is None and profiles is not None:
                parts.append("profile IN (" + ", ".join("?" * len(profiles)) + ")")
                args.extend(profiles)
        if profile is not None:
            parts.append("profile = ?")
            args.append(str(profile))
        return (" WHERE " + " AND ".join(parts) if parts else ""), tuple(args)


def clock_text(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour (as both games show times)."""
    s = int(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def best_of_text(best: dict[str, Any], lang: str = "en") -> str:
    """The end dialog's line of :meth:`StatsStore.best_of`: ``Best of this game type: Games
    3 · Wins 2 · Best score 280 · Fewest moves 16 · Fastest win 1:05`` (the ``shown``
    keys in order, each under its label; the fastest win as a clock)."""
    from .labels import label
    from .messages import check_lang

    lang = check_lang(lang)
    parts = [
        f"{label(key, lang)} {clock_text(best[key]) if key == 'fastest_win' else best[key]}"
        for key in best["shown"]
    ]
    return f"{label('best_of', lang)}: " + " · ".join(parts)


def deal_filter(deal: Any, profile: str | None = None) -> tuple[Any, list[str] | None]:
    """The deal a statistics query names (a code, 52 card tokens or a deal number, as
    ``solve`` takes them) and the profiles it is played under: a code's letter names its
    rules, so only the built-in profiles of those rules (None: any profile, for card lists,
    numbers and X codes). A ``profile`` whose rules differ from the code's is a ValueError."""
    from ..inputs.deals import deal_number_of
    from ..model.deal import Deal
    from ..model.profiles import Profile

    number = deal_number_of(deal)
    if number is not None:
        return Deal.from_number(number, rules=None), None
    parsed = Deal.parse(deal)
    if parsed.rules is None or parsed.code is None:
        return parsed, None
    if profile is not None:
        try:
            chosen = Profile.preset(profile)
        except ValueError:
            return parsed, None  # a profile of the user's own: no letter to check
        from ..model.profiles import check_code_profile

        check_code_profile(parsed.code, chosen, "profile")
        return parsed, None
    return parsed, [name for name in Profile.names() if Profile.preset(name).rules == parsed.rules]


def stats_object(
    store: Any, profile: str | None, lang: str, limit: int = 20, deal: str | None = None
) -> dict[str, Any]:
    """The ``stats`` object of both protocol versions: the summary, high scores, history and
    best of a profile (its ``text`` in ``lang``), of one deal when ``deal`` is given."""
    from ..model.profiles import Profile

    points = None if profile is None else Profile.preset(profile).scoring.gives_points
    return {
        **store.summary(profile, deal),
        "points": points,
        "high_scores": store.high_scores(profile, deal=deal),
        "history": store.history(profile, limit),
        "best_of": None if profile is None else store.best_of(profile, lang),
    }
