"""Every refusal the service can send is worded by the hint page in French and English.

The engine, the converters and the service refuse with a template and its parameters
(engine.errors.Wording); the page words a template from its catalogues, key
`refusal.<template>` (the generic ones in js/i18n, a game's in its module's CATALOGUE as
`<game>.refusal.<template>`). This test reads the templates off the sources (the reason
argument of every refusal constructor, or the string a name passed as one is assigned in
its file) and checks that none is an f-string, whose text the catalogues could not hold,
and that each has its catalogue entry."""

from __future__ import annotations

import ast
import io
import json
import shutil
import subprocess
import tokenize
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"
#: The constructors that take a reason, and the position of that reason among their
#: arguments: a field comes first for FieldError's kind and the service's field statuses.
REASON_AT = {
    **dict.fromkeys(
        ("FieldError", "InvalidObservationError", "ReviewError", "BadDeal", "BadBody"), 1
    ),
    **dict.fromkeys(("invalid_argument", "resource_exhausted", "BudgetError", "status"), 1),
    **dict.fromkeys(
        (
            "WordedError",
            "IllegalMoveError",
            "worded",
            "around",
            "failed_precondition",
            "not_found",
            "unauthenticated",
            "permission_denied",
            "deadline_exceeded",
            "unavailable",
        ),
        0,
    ),
}
#: The games the page plays (a folder under clients/web/static/js/games).
PAGE_GAMES = sorted(
    p.stem for p in (WEB / "static" / "js" / "games").glob("*.js") if p.stem != "index"
)
#: The generic sources whose refusals can reach the page.
GENERIC = [
    "engine/cstate.pyx",
    "engine/errors.py",
    "convert/__init__.py",
    "convert/adapter.py",
    "search/review.py",
    "clients/web/deal.py",
    "clients/web/gateway.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "server").glob("*.py")),
]


def _sources() -> dict[str, list[Path]]:
    """The sources whose refusals each catalogue words: "" for the generic one."""
    found = {"": [ROOT / name for name in GENERIC]}
    for game in PAGE_GAMES:
        folder = ROOT / "engine" / game
        files = sorted([*folder.glob("*.py"), *folder.glob("*.pyx")])
        found[game] = [*files, ROOT / "convert" / f"{game}.py"]
    return found


def _arguments(tokens: list[tokenize.TokenInfo], start: int) -> list[list[tokenize.TokenInfo]]:
    """The arguments of the call whose "(" is tokens[start], each as its tokens."""
    args: list[list[tokenize.TokenInfo]] = [[]]
    depth = 0
    for tok in tokens[start:]:
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
            if depth == 1:
                continue
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and tok.type == tokenize.OP and tok.string == ",":
            args.append([])
            continue
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            args[-1].append(tok)
    return [a for a in args if a]


def _strings_assigned(source: str) -> dict[str, list[ast.expr]]:
    """The string values (literal or f-string) each plain name is assigned in `source`."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(ast.parse(source)):
        value = getattr(node, "value", None)
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if isinstance(value, ast.JoinedStr) or (
            isinstance(value, ast.Constant) and isinstance(value.value, str)
        ):
            for target in targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(value)
    return found


def templates_in(path: Path) -> tuple[list[str], list[str]]:
    """(templates, f-string reasons) of the refusals raised in `path`."""
    source = path.read_text()
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    assigned = _strings_assigned(source) if path.suffix == ".py" else {}
    templates, fstrings = [], []
    for i, tok in enumerate(tokens[:-1]):
        at = REASON_AT.get(tok.string) if tok.type == tokenize.NAME else None
        after = tokens[i + 1]
        if at is None or after.type != tokenize.OP or after.string != "(":
            continue
        if i and tokens[i - 1].string in ("def", "class"):
            continue
        args = _arguments(tokens, i + 1)
        where = f"{path.relative_to(ROOT)}:{tok.start[0]}"
        if len(args) > at and len(args[at]) == 1 and args[at][0].string in assigned:
            for value in assigned[args[at][0].string]:  # a reason named, assigned in the file
                if isinstance(value, ast.JoinedStr):
                    fstrings.append(where)
                else:
                    templates.append(value.value)
            continue
        if len(args) <= at or any(t.type != tokenize.STRING for t in args[at]):
            continue  # a wording made elsewhere, passed on
        if "=" in {t.string for t in args[at]}:
            continue
        if any(t.string.lstrip("rRbB").lower().startswith("f") for t in args[at]):
            fstrings.append(where)
        else:
            templates.append("".join(ast.literal_eval(t.string) for t in args[at]))
    return templates, fstrings


def _catalogue_keys() -> dict[str, set[str]]:
    """Each catalogue's English keys, read by node: "" for js/i18n, else a game's."""
    script = (
        "const out = {'': Object.keys((await import('./static/js/i18n/en.js')).default)};"
        f"for (const g of {json.dumps(PAGE_GAMES)}) "
        "out[g] = Object.keys((await import(`./static/js/games/${g}.js`)).CATALOGUE.en);"
        "console.log(JSON.stringify(out));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=WEB,
        capture_output=True,
        text=True,
        check=True,
    )
    return {name: set(keys) for name, keys in json.loads(done.stdout).items()}


def test_refusals_are_templates_not_f_strings() -> None:
    bad = [where for files in _sources().values() for f in files for where in templates_in(f)[1]]
    assert not bad, "refusals worded by an f-string (use a template and its params):\n" + "\n".join(
        bad
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_every_refusal_has_its_words_on_the_page() -> None:
    keys = _catalogue_keys()
    missing = []
    for game, files in _sources().items():
        prefix = f"{game}.refusal." if game else "refusal."
        for path in files:
            for template in templates_in(path)[0]:
                if f"refusal.{template}" not in keys[""] and prefix + template not in keys[game]:
                    missing.append(f"{path.relative_to(ROOT)}: {template!r}")
    assert not missing, "refusals the page cannot word:\n" + "\n".join(missing)


def test_the_page_games_are_the_engine_games_it_knows() -> None:
    assert set(PAGE_GAMES) <= {spec.name for spec in registry.games()}
