"""A small evaluator of Calc expressions, so a checkpoint can tell which cells a
conditional-formatting rule marks when the rule is a formula ("$D2>IF($A2<DATE(2026;3;16);
800;1000)", "AND(A2>=46097;D2>1000)", "D2>$E2" with a helper column): the file stores the
rule, never what it marked, and a check that accepted only one spelling of the rule would
fail right answers.

It covers what such rules are written with: numbers, strings, cell references (on the
rule's sheet relative in their row, on another sheet fixed: the reader keeps no ``$``),
arithmetic, ``&``, comparisons with Calc's ordering (numbers before text, text without
case), and IF, AND, OR, NOT, DATE, DATEVALUE, YEAR, MONTH, DAY, VALUE, ABS, MIN, MAX,
TRUE, FALSE. A date cell counts as its serial number (days since 1899-12-30), as in Calc.
Anything else raises :class:`Unsupported`; the caller counts that as marking nothing.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from reefbench.documents import DocumentUnreadable, Sheet, Spreadsheet
from reefbench.documents.normal import column_letters

Value = float | str
EPOCH = datetime.date(1899, 12, 30)
_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
    r'|(?P<string>"(?:[^"]|"")*")'
    r"|(?P<ref>(?:(?:'[^']+'|[A-Za-z_][\w ]*?)!)?\$?[A-Za-z]{1,3}\$?\d+)(?![\w(])"
    r"|(?P<name>[A-Za-z_][\w.]*)"
    r"|(?P<op><=|>=|<>|!=|[-+*/&=<>();,%^]))"
)


class Unsupported(ValueError):
    """The expression uses something this evaluator does not know."""


def serial(iso: str) -> float:
    """A date ("2026-03-16", time part ignored) as Calc's serial number."""
    return float((datetime.date.fromisoformat(iso[:10]) - EPOCH).days)


def _tokens(text: str) -> list[tuple[str, str]]:
    found, at = [], 0
    text = text.strip().removeprefix("=")
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            raise Unsupported(f"cannot read {text[at:]!r}")
        kind = match.lastgroup or ""
        found.append((kind, match.group(kind)))
        at = match.end()
    return found


@dataclass
class _Context:
    book: Spreadsheet
    sheet: Sheet
    shift: int  # rows the rule's own references move (the cell's row less the base row)


def _cell(context: _Context, reference: str) -> Value:
    name, _, address = reference.rpartition("!")
    match = re.fullmatch(r"\$?([A-Za-z]+)\$?(\d+)", address)
    if match is None:
        raise Unsupported(reference)
    letters, row = match.group(1).upper(), int(match.group(2))
    sheet = context.sheet
    if name:
        try:
            sheet = context.book.sheet(name.strip("'$"))
        except DocumentUnreadable as exc:
            raise Unsupported(reference) from exc
    else:
        row += context.shift
    cell = sheet.cells.get(f"{letters}{row}")
    if cell is None:
        return 0.0
    if cell.date:
        return serial(cell.date)
    if cell.value is not None:
        return cell.value
    return cell.text


def _number(value: Value) -> float:
    if isinstance(value, float):
        return value
    text = value.strip()
    if not text:
        return 0.0
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return serial(text)
    except ValueError as exc:
        raise Unsupported(f"{value!r} is no number") from exc


def compare(a: Value, op: str, b: Value) -> bool:
    """Calc's comparison: numbers before text, text without regard to case."""
    key_a = (0, a, "") if isinstance(a, float) else (1, 0.0, a.casefold())
    key_b = (0, b, "") if isinstance(b, float) else (1, 0.0, b.casefold())
    if op == "=":
        return key_a == key_b
    if op in ("<>", "!="):
        return key_a != key_b
    return {
        "<": key_a < key_b,
        ">": key_a > key_b,
        "<=": key_a <= key_b,
        ">=": key_a >= key_b,
    }[op]


def _date(y: float, m: float, d: float) -> float:
    year, month = int(y) + (int(m) - 1) // 12, (int(m) - 1) % 12 + 1
    return float((datetime.date(year, month, 1) - EPOCH).days) + int(d) - 1


def _part(value: Value, attribute: str) -> float:
    day = EPOCH + datetime.timedelta(days=int(_number(value)))
    return float(getattr(day, attribute))


class _Parser:
    def __init__(self, text: str, context: _Context) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.context = context

    def peek(self) -> str:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else ""

    def take(self, expected: str = "") -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise Unsupported("the expression ends too early")
        token = self.tokens[self.at]
        if expected and token[1] != expected:
            raise Unsupported(f"expected {expected!r}, found {token[1]!r}")
        self.at += 1
        return token

    def whole(self) -> Value:
        value = self.comparison()
        if self.at != len(self.tokens):
            raise Unsupported(f"unexpected {self.peek()!r}")
        return value

    def comparison(self) -> Value:
        left = self.concat()
        while self.peek() in ("=", "<>", "!=", "<", ">", "<=", ">="):
            op = self.take()[1]
            left = 1.0 if compare(left, op, self.concat()) else 0.0
        return left

    def concat(self) -> Value:
        left = self.additive()
        while self.peek() == "&":
            self.take()
            right = self.additive()
            left = f"{_text(left)}{_text(right)}"
        return left

    def additive(self) -> Value:
        left = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            right = _number(self.term())
            left = _number(left) + right if op == "+" else _number(left) - right
        return left

    def term(self) -> Value:
        left = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()[1]
            right = _number(self.unary())
            if op == "/" and right == 0:
                raise Unsupported("division by zero")
            left = _number(left) * right if op == "*" else _number(left) / right
        return left

    def unary(self) -> Value:
        if self.peek() in ("-", "+"):
            sign = -1.0 if self.take()[1] == "-" else 1.0
            return sign * _number(self.unary())
        value = self.primary()
        if self.peek() == "%":
            self.take()
            value = _number(value) / 100
        return value

    def primary(self) -> Value:
        kind, text = self.take()
        if kind == "number":
            return float(text)
        if kind == "string":
            return text[1:-1].replace('""', '"')
        if kind == "ref":
            return _cell(self.context, text)
        if text == "(":
            value = self.comparison()
            self.take(")")
            return value
        if kind == "name":
            return self.function(text.upper())
        raise Unsupported(f"unexpected {text!r}")

    def arguments(self) -> list[Value]:
        self.take("(")
        values: list[Value] = []
        if self.peek() == ")":
            self.take()
            return values
        while True:
            values.append(self.comparison())
            separator = self.take()[1]
            if separator == ")":
                return values
            if separator not in (";", ","):
                raise Unsupported(f"unexpected {separator!r}")

    def function(self, name: str) -> Value:
        if name in ("TRUE", "FALSE") and self.peek() != "(":
            return 1.0 if name == "TRUE" else 0.0
        args = self.arguments()
        numbers = [_number(a) for a in args] if name not in ("IF", "DATEVALUE") else []
        if name == "IF" and len(args) in (2, 3):
            chosen = args[1] if _number(args[0]) != 0 else (args[2] if len(args) == 3 else 0.0)
            return chosen
        if name in ("AND", "OR") and numbers:
            truth = [n != 0 for n in numbers]
            return 1.0 if (all(truth) if name == "AND" else any(truth)) else 0.0
        if name == "NOT" and len(numbers) == 1:
            return 0.0 if numbers[0] else 1.0
        if name in ("TRUE", "FALSE") and not args:
            return 1.0 if name == "TRUE" else 0.0
        if name == "DATE" and len(numbers) == 3:
            return _date(*numbers)
        if name == "DATEVALUE" and len(args) == 1:
            return serial(_text(args[0]))
        if name in ("YEAR", "MONTH", "DAY") and len(numbers) == 1:
            return _part(numbers[0], name.lower())
        if name == "VALUE" and len(numbers) == 1:
            return numbers[0]
        if name in ("MIN", "MAX") and numbers:
            return min(numbers) if name == "MIN" else max(numbers)
        if name == "ABS" and len(numbers) == 1:
            return abs(numbers[0])
        raise Unsupported(f"{name} with {len(args)} arguments")


def _text(value: Value) -> str:
    if isinstance(value, str):
        return value
    return f"{value:g}"


def evaluate(book: Spreadsheet, sheet: Sheet, expression: str, shift: int = 0) -> Value:
    """The value of ``expression`` as Calc would give it in the cell ``shift`` rows below
    the rule's base cell (a comparison gives 1.0 or 0.0)."""
    try:
        return _Parser(expression, _Context(book, sheet, shift)).whole()
    except (ValueError, OverflowError) as exc:
        raise Unsupported(str(exc)) from exc


def column_of(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


__all__ = ["Unsupported", "column_letters", "column_of", "compare", "evaluate", "serial"]
