"""Write what is built from the rule options' table (python/pyramid_solitaire/model/options.py)
into the files that cannot read it at run time: the core's ``pyr_rules`` struct and its check
(src/pyramid_core/pyr_rules.h), their Cython declarations and ``rules_from_options``
(src/pyramid_core/rules.pxd), the tables of docs/rules.md and the ``rules`` object of the
protocol's JSON Schema.

    python tools/rule_tables.py           # rewrite the generated parts
    python tools/rule_tables.py --check   # exit 1 if any is out of date (a test runs this)
    python tools/rule_tables.py --with-dummy DIR
        # a copy of src/pyramid_core in DIR whose table has one more option, "dummy", that no
        # shortcut knows (tools/dummy_option_build.sh builds and tests it)

Only the text between each file's BEGIN/END generated markers is rewritten; everything else in
those files is written by hand.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OPTIONS_PY = ROOT / "python" / "pyramid_solitaire" / "model" / "options.py"
CORE = ROOT / "src" / "pyramid_core"
HEADER = "pyr_rules.h"
PXD = "rules.pxd"
DOCS = ROOT / "docs" / "rules.md"
SCHEMA = ROOT / "python" / "pyramid_solitaire" / "session" / "protocol.schema.json"


def load_options() -> ModuleType:
    """options.py on its own (it imports only the standard library): no build needed."""
    spec = importlib.util.spec_from_file_location("_rule_options", OPTIONS_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def with_dummy(o: ModuleType) -> None:
    """Add the test option ``dummy`` (0 or 1, default 0, played by no engine) to the table."""
    o.OPTIONS = (
        *o.OPTIONS,
        o.Option(
            name="dummy",
            kind="choice",
            default=0,
            choices=(0, 1),
            core="dummy",
            core_doc="a test option no shortcut has been shown sound for",
            metavar="0|1",
            help="a test option",
            values_doc="0 or 1",
            meaning="a test option",
            phrase=lambda v: "dummy" if v else None,
            phrase_place=9,
        ),
    )


def _c_value(o: ModuleType, opt: Any, value: Any) -> str:
    if opt.kind == "count" and value == o.UNLIMITED:
        return "PYR_REDEALS_UNLIMITED"
    return str(int(opt.to_core(value)))


def _c_range_check(o: ModuleType, opt: Any) -> str:
    field = f"r->{opt.core}"
    if opt.kind == "count":
        cond = f"{field} > PYR_REDEALS_MAX && {field} != PYR_REDEALS_UNLIMITED"
        want = f"0..{o.MAX_REDEALS} or {o.CORE_UNLIMITED}"
    else:
        values = [_c_value(o, opt, v) for v in opt.choices]
        cond = " && ".join(f"{field} != {v}" for v in values)
        want = " or ".join(values)
    return f'    if ({cond}) return "{opt.core} must be {want}";'


def header(o: ModuleType) -> str:
    lines = [
        f"#define PYR_REDEALS_UNLIMITED {o.CORE_UNLIMITED} /* redeals: recycle without limit */",
        f"#define PYR_REDEALS_MAX {o.MAX_REDEALS} /* the largest finite redeal count */",
        "",
        "typedef struct {",
    ]
    lines += [f"    uint8_t {opt.core}; /* {opt.core_doc} */" for opt in o.OPTIONS]
    lines += ["} pyr_rules;", "", "/* Each option as a bit (pyr_rules_changed). */", "enum {"]
    lines += [f"    PYR_OPT_{opt.core.upper()} = 1u << {i}," for i, opt in enumerate(o.OPTIONS)]
    lines += [f"    PYR_OPT_ALL = (1u << {len(o.OPTIONS)}) - 1u", "};", ""]
    lines += [
        "/* The options of *r that differ from their defaults (the pyramide preset). */",
        "static inline uint32_t pyr_rules_changed(const pyr_rules *r) {",
        "    uint32_t m = 0;",
    ]
    for opt in o.OPTIONS:
        default = _c_value(o, opt, opt.default)
        lines.append(f"    if (r->{opt.core} != {default}) m |= PYR_OPT_{opt.core.upper()};")
    lines += ["    return m;", "}", ""]
    lines += [
        "/* NULL when the engine plays *r, else what is wrong with it: a value out of its",
        " * range, or options that do not go together (the table's Needs). */",
        "static inline const char *pyr_rules_problem(const pyr_rules *r) {",
    ]
    lines += [_c_range_check(o, opt) for opt in o.OPTIONS]
    by_name = {opt.name: opt for opt in o.OPTIONS}
    for need in o.NEEDS:
        when, other = by_name[need.when], by_name[need.other]
        allowed = " || ".join(f"r->{other.core} == {_c_value(o, other, a)}" for a in need.allowed)
        if other.kind == "flag":
            text = f"{when.core}={_c_value(o, when, need.value)} does not go with {other.core}"
        else:
            text = f"{when.core}={_c_value(o, when, need.value)} needs " + " or ".join(
                f"{other.core}={_c_value(o, other, a)}" for a in need.allowed
            )
        lines.append(
            f"    if (r->{when.core} == {_c_value(o, when, need.value)} && !({allowed}))"
            f' return "{text} ({need.reason})";'
        )
    lines += ["    return NULL;", "}"]
    return "\n".join(lines)


def pxd(o: ModuleType) -> str:
    lines = [
        'cdef extern from "pyr_rules.h" nogil:',
        "    enum:",
        '        REDEALS_UNLIMITED "PYR_REDEALS_UNLIMITED"   # redeals: recycle without limit',
        '        REDEALS_MAX "PYR_REDEALS_MAX"               # the largest finite redeal count',
        "    ctypedef struct pyr_rules:   # (its fields are described in pyr_rules.h)",
    ]
    lines += [f"        uint8_t {opt.core}" for opt in o.OPTIONS]
    lines += ["    enum:   # each option as a bit of pyr_rules_changed"]
    lines += [f'        OPT_{opt.core.upper()} "PYR_OPT_{opt.core.upper()}"' for opt in o.OPTIONS]
    lines += [
        '        OPT_ALL "PYR_OPT_ALL"',
        "    uint32_t pyr_rules_changed(const pyr_rules* r)",
        "    const char* pyr_rules_problem(const pyr_rules* r)",
        "",
        "",
        "cdef inline int rules_from_options(pyr_rules* r, dict d) except -1:",
        '    """Fill r from Rules.core_options()-style keywords (missing ones: their defaults,',
        "    the pyramide preset); ValueError for an unknown keyword or a rule set the engine",
        '    does not play (pyr_rules_problem)."""',
        "    cdef const char* problem",
        "    cdef tuple names = (",
        *(f'        "{opt.core}",' for opt in o.OPTIONS),
        "    )",
        "    for key, value in d.items():",
        "        if key not in names:",
        '            raise ValueError(f"unknown core rule option {key!r}: expected one of "',
        '                             + ", ".join(names))',
        '        if not hasattr(value, "__index__") or not 0 <= value.__index__() <= 255:',
        '            raise ValueError(f"core rule option {key} must be a whole number 0..255, "',
        '                             f"got {value!r}")',
    ]
    for opt in o.OPTIONS:
        default = _c_value(o, opt, opt.default).replace("PYR_", "")
        lines.append(f'    r.{opt.core} = d.get("{opt.core}", {default})')
    lines += [
        "    problem = pyr_rules_problem(r)",
        "    if problem != NULL:",
        "        raise ValueError(problem.decode())",
        "    return 0",
    ]
    return "\n".join(lines)


def _preset_rules(o: ModuleType, preset: Any) -> str:
    values = {**{opt.name: opt.default for opt in o.OPTIONS}, **preset.changes}
    parts = []
    for opt in o.OPTIONS:
        v = values[opt.name]
        if opt.kind == "flag":
            if v:
                parts.append(opt.name)
        else:
            parts.append(f"{opt.name} {v}")
    return ", ".join(parts)


def docs(o: ModuleType) -> dict[str, str]:
    options = ["| option | values | meaning |", "|---|---|---|"]
    options += [f"| `{opt.name}` | {opt.values_doc} | {opt.meaning} |" for opt in o.OPTIONS]
    needs = []
    for n in o.NEEDS:
        allowed = " or ".join(f"`{n.other}={a!r}`" for a in n.allowed)
        needs.append(f"- `{n.when}={n.value!r}` needs {allowed}: {n.reason}.")
    presets = ["| preset | letter | source | rules |", "|---|---|---|---|"]
    for p in o.PRESETS:
        name = f"`{p.name}`" + (" (the default)" if not p.changes else "")
        source = p.source.replace(" (the default)", "")
        presets.append(f"| {name} | {p.letter} | {source} | {_preset_rules(o, p)} |")
    return {
        "options": "\n".join(options),
        "needs": "\n".join(needs),
        "presets": "\n".join(presets),
    }


def schema_rules(o: ModuleType) -> dict[str, Any]:
    props: dict[str, Any] = {
        "name": {"enum": [p.name for p in o.PRESETS] + ["custom"]},
        "letter": {"enum": [p.letter for p in o.PRESETS] + [o.CUSTOM_LETTER]},
    }
    props.update({opt.name: o.value_schema(opt) for opt in o.OPTIONS})
    return {
        "type": "object",
        "description": "A rule set (docs/rules.md): its preset's name and letter and every option.",
        "required": ["name", "letter", *(opt.name for opt in o.OPTIONS)],
        "properties": props,
        "additionalProperties": False,
    }


def _splice(text: str, begin: str, end: str, body: str, where: str) -> str:
    """``text`` with what lies between the lines holding ``begin`` and ``end`` replaced."""
    try:
        i = text.index(begin)
        i = text.index("\n", i) + 1
        j = text.index(end, i)
        j = text.rindex("\n", 0, j) + 1
    except ValueError:
        sys.exit(f"rule_tables: {where} has no '{begin}' ... '{end}' markers")
    return text[:i] + body + "\n" + text[j:]


def outputs(o: ModuleType, core: Path = CORE) -> dict[Path, str]:
    """Each generated file's new text."""
    result: dict[Path, str] = {}
    h = (core / HEADER).read_text(encoding="utf-8")
    result[core / HEADER] = _splice(h, "BEGIN generated", "END generated", header(o), HEADER)
    x = (core / PXD).read_text(encoding="utf-8")
    result[core / PXD] = _splice(x, "BEGIN generated", "END generated", pxd(o), PXD)
    if core == CORE:
        d = DOCS.read_text(encoding="utf-8")
        for key, body in docs(o).items():
            d = _splice(d, f"BEGIN generated {key}", f"END generated {key}", body, "docs/rules.md")
        result[DOCS] = d
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        schema["$defs"]["rules"] = schema_rules(o)
        result[SCHEMA] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is out of date")
    parser.add_argument("--with-dummy", metavar="DIR", help="a core with a dummy option in DIR")
    args = parser.parse_args(argv)
    o = load_options()
    if args.with_dummy:
        target = Path(args.with_dummy)
        shutil.copytree(
            CORE,
            target,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"),
        )
        with_dummy(o)
        for path, text in outputs(o, target).items():
            path.write_text(text, encoding="utf-8")
        print(f"rule_tables: a core with the dummy option in {target}")
        return 0
    stale = []
    for path, text in outputs(o).items():
        if path.read_text(encoding="utf-8") != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(
            "rule_tables: out of date: "
            + ", ".join(map(str, stale))
            + " (run python tools/rule_tables.py)",
            file=sys.stderr,
        )
        return 1
    print("rule_tables: " + (f"rewrote {', '.join(map(str, stale))}" if stale else "up to date"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
