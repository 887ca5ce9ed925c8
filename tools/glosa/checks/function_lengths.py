"""No function in app/, engine/ or plugins/ is longer than 80 lines, and no file of app/gui/ longer
than 600 (a view that grows past that is doing its presenter's work: docs/architecture.md).

A function's length is counted from the first line of its signature (its `template <...>` line,
where it has one) to the line of its closing brace. Lambdas and local classes count toward the
function they are written in; a lambda stored in a variable at namespace or class scope counts as
a function of its own, named after the variable. Functions are found in .cpp and .h files alike
(members defined in a class body are named Class::member).

The scan is a small lexer, not a compiler: comments, string and character literals (raw strings
and digit separators included) and preprocessor lines are blanked first, so that a brace in any
of them is not counted; then each brace at namespace or class scope is classified from the text
in front of it (a namespace, a class, a function body, a constructor's member initialiser, or a
data initialiser). A file whose braces do not balance after that is an error, never a silent
pass.

  python3 -m glosa.checks.function_lengths         (from tools/; or tools/check_function_lengths.py)
  ctest -R py_test_function_lengths                (the suite runs it, and the scanner's own tests)

Two lists name the functions allowed to be longer, each with its reason: EXCEPTIONS (generated
code and data tables, which are read as tables, not as steps) and PENDING (functions being split
on other branches right now; the list is emptied when those branches merge). An entry that no
longer matches a long function is reported too, so that neither list outlives its reason.
"""

import argparse
import bisect
import os
import re
import sys
from dataclasses import dataclass

from glosa import REPO_ROOT

LIMIT = 80
ROOTS = ("app", "engine", "plugins")
# Folder -> the most lines a .cpp/.h file in it (and below) may have.
FILE_LIMITS = {"app/gui": 600}
SUFFIXES = (".cpp", ".h")

# (path from the repository root, function name as reported) -> why it may be longer. For
# generated code and data tables only: a function that does steps is split into them instead.
EXCEPTIONS = {
}

# Functions that other branches are splitting while this list was written: they own those files.
# The lead empties this list when those branches merge (an entry that no longer matches a long
# function is reported as stale, so a merge that fixes one shows it).
PENDING = {
}


@dataclass(frozen=True)
class Function:
    path: str
    name: str
    first_line: int  # 1-based, the signature's first line
    last_line: int  # 1-based, the closing brace's line

    @property
    def length(self):
        return self.last_line - self.first_line + 1


class ScanError(ValueError):
    pass


# ---------------------------------------------------------------------------------------------
# Lexing: everything that is not code becomes spaces, line breaks kept, so offsets and line
# numbers stay those of the file. A string literal keeps its quotes ("" for "a{b"), so that
# `extern "C"` stays recognisable.

_RAW_PREFIX = re.compile(r'(?:u8|u|U|L)?R$')
_IDENT_CHAR = re.compile(r'[A-Za-z0-9_]')


def _blank(chars, start, end):
    for k in range(start, end):
        if chars[k] != "\n":
            chars[k] = " "


def _is_digit_separator(text, i):
    """Whether the ' at i is a digit separator (1'000'000, 0xFF'FF) rather than a char literal."""
    k = i
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_'."):
        k -= 1
    return k < i and text[k].isdigit()


def _raw_string_end(text, quote):
    """The index after the raw string literal whose opening quote is at `quote`."""
    open_paren = text.find("(", quote + 1)
    if open_paren < 0 or open_paren - quote - 1 > 16:
        raise ScanError("a raw string literal without its '('")
    delimiter = text[quote + 1:open_paren]
    close = text.find(")" + delimiter + '"', open_paren + 1)
    if close < 0:
        raise ScanError("a raw string literal that never ends")
    return close + len(delimiter) + 2


def _quoted_end(text, start, quote):
    """The index after the "..." or '...' literal opening at `start`."""
    k = start + 1
    while k < len(text):
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == quote:
            return k + 1
        if c == "\n":
            raise ScanError("a literal that runs to the end of its line")
        k += 1
    raise ScanError("a literal that never ends")


def _directive_end(text, start):
    """The index of the line break that ends the preprocessor directive at `start`."""
    k = start
    while True:
        eol = text.find("\n", k)
        if eol < 0:
            return len(text)
        if text[eol - 1] != "\\" and not text[k:eol].rstrip().endswith("\\"):
            return eol
        k = eol + 1


def strip_code(text):
    """The text with comments, literals' contents and preprocessor lines blanked."""
    chars = list(text)
    i, n = 0, len(text)
    line_start = True  # only white space since the last line break
    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":
            end = _directive_end(text, i)
            _blank(chars, i, end)
            i = end
            continue
        line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            _blank(chars, i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ScanError("a comment that never ends")
            _blank(chars, i, end + 2)
            i = end + 2
        elif c == '"':
            prefix = _RAW_PREFIX.search(text, max(0, i - 3), i)
            raw = prefix and (prefix.start() == 0 or not _IDENT_CHAR.match(text[prefix.start() - 1]))
            end = _raw_string_end(text, i) if raw else _quoted_end(text, i, '"')
            _blank(chars, i + 1, end - 1)
            i = end
        elif c == "'" and not _is_digit_separator(text, i):
            end = _quoted_end(text, i, "'")
            _blank(chars, i + 1, end - 1)
            i = end
        else:
            i += 1
    return "".join(chars)


# ---------------------------------------------------------------------------------------------
# Reading the text in front of a brace ("the head": everything since the last ';', '{' or '}'
# at this scope).

def _collapse(head):
    """The head with every balanced (...), [...] and {...} emptied: `f(int a = {}) const` ->
    `f() const`. Angle brackets are left alone (a '<' may be a comparison)."""
    out, depth = [], 0
    pairs = {"(": ")", "[": "]", "{": "}"}
    closing = []
    for c in head:
        if c in pairs:
            if depth == 0:
                out.append(c)
            closing.append(pairs[c])
            depth += 1
        elif closing and c == closing[-1]:
            closing.pop()
            depth -= 1
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _strip_angles(text):
    """Removes one leading balanced <...> group from text, which starts with '<'."""
    depth = 0
    for k, c in enumerate(text):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if depth == 0:
            return text[k + 1:]
    return ""


_LEADING_DECORATION = re.compile(r"(?:\[\]|Q_[A-Z_]+(?:\s*\(\))?)\s*")


def _undecorated(skeleton):
    """The collapsed head without its leading template parameter lists, attributes and Qt macros
    (Q_OBJECT, Q_INVOKABLE, Q_INTERFACES(...) and the like, some of which end without a
    semicolon)."""
    while True:
        template = re.match(r"template\s*<", skeleton)
        if template:
            skeleton = _strip_angles(skeleton[template.end() - 1:]).lstrip()
            continue
        decoration = _LEADING_DECORATION.match(skeleton)
        if decoration and decoration.end() > 0:
            skeleton = skeleton[decoration.end():]
            continue
        return skeleton


_QUALIFIERS = re.compile(
    r"(?:\s*\b(?:const|volatile|noexcept(?:\s*\(\))?|override|final|mutable|constexpr|try"
    r"|throw\s*\(\))\b|\s*&&|\s*&)*\s*$")
_NAME = re.compile(
    r"((?:~?[A-Za-z_]\w*(?:\s*<[^;{}]*?>)?\s*::\s*)*"
    r"(?:operator\s*(?:\(\)|\[\]|\"\"\s*\w+|(?:new|delete)(?:\[\])?|[^\w\s()]+|[A-Za-z_][\w\s:<>*&]*?)"
    r"|~?[A-Za-z_]\w*(?:\s*<[^;{}]*?>)?))\s*$")
_CLASS = re.compile(r"^(?:typedef\s+)?(?:class|struct|union|enum)\b")
_INIT_LIST = re.compile(r"\)(?:\s*(?:const|noexcept(?:\s*\(\))?))*\s*:(?!:)")
_LAMBDA = re.compile(r"(\w+)\s*=\s*\[\]\s*(?:\(\))?\s*(?:mutable\s*)?(?:->.*)?$")
_ACCESS_LABEL = re.compile(r"(?:^|\s)(?:public|private|protected|signals|slots|Q_SIGNALS|Q_SLOTS"
                           r"|public\s+slots|private\s+slots|protected\s+slots"
                           r"|public\s+Q_SLOTS|private\s+Q_SLOTS|protected\s+Q_SLOTS)\s*$")


def _signature_end(skeleton):
    """The collapsed head without a trailing return type and qualifiers."""
    skeleton = re.sub(r"\s*->.*$", "", skeleton)
    return _QUALIFIERS.sub("", skeleton)


def _function_name(before_parameters):
    match = _NAME.search(before_parameters)
    return re.sub(r"\s+", "", match.group(1)) if match else None


def classify(head):
    """What a '{' after `head` opens: ("namespace", name), ("class", name), ("function", name),
    ("member-init", None) for a brace in a constructor's initialiser list, or ("data", None)."""
    skeleton = _undecorated(_collapse(head))
    if re.match(r"^(?:inline\s+)?namespace\b", skeleton):
        return "namespace", skeleton.split("namespace", 1)[1].strip()
    if re.match(r'^extern\s*"\s*"$', skeleton):
        return "namespace", ""
    signature = _signature_end(skeleton)
    if _CLASS.match(skeleton) and not signature.endswith(")"):
        name = re.sub(r"\s*:[^:].*$", "", skeleton)
        name = re.sub(r"\b(?:final|alignas\s*\(\))\b", "", name).split()
        return "class", (name[-1] if len(name) > 1 else "")
    init = _INIT_LIST.search(skeleton)
    if init:
        if not re.search(r"[)}]$", skeleton):
            return "member-init", None
        return "function", _function_name(skeleton[:init.start() - 1])
    lambda_match = _LAMBDA.search(skeleton)
    if lambda_match:
        return "function", lambda_match.group(1)
    without_operators = re.sub(r"\boperator\s*[^\w\s(]+", "operator", signature)
    if re.search(r"(?<![=!<>])=(?!=)", without_operators):
        return "data", None
    if signature.endswith(")"):
        name = _function_name(signature[:-2])
        if name and name not in ("if", "for", "while", "switch", "catch", "decltype", "sizeof"):
            return "function", name
    return "data", None


# ---------------------------------------------------------------------------------------------
# Scanning a file.

def _matching_brace(code, open_index):
    depth = 0
    for k in range(open_index, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    raise ScanError("the brace opened here is never closed")


class _Lines:
    def __init__(self, text):
        self._starts = [0] + [k + 1 for k, c in enumerate(text) if c == "\n"]

    def of(self, offset):
        return bisect.bisect_right(self._starts, offset)


def scan(text, path="<text>"):
    """Every function body in `text` (a C++ source or header), in order."""
    try:
        code = strip_code(text)
    except ScanError as error:
        raise ScanError("%s: %s" % (path, error)) from None
    lines = _Lines(text)
    functions = []
    scopes = []  # ("namespace" | "class", name)
    head_start = 0
    i = 0
    while i < len(code):
        c = code[i]
        if c == ";":
            head_start = i + 1
        elif c == ":" and code[i - 1:i] != ":" and code[i + 1:i + 2] != ":" \
                and _ACCESS_LABEL.search(code[head_start:i]):
            head_start = i + 1
        elif c == "}":
            if not scopes:
                raise ScanError("%s:%d: a '}' that closes nothing" % (path, lines.of(i)))
            scopes.pop()
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            kind, name = classify(head)
            if kind in ("namespace", "class"):
                scopes.append((kind, name))
                head_start = i + 1
            else:
                try:
                    end = _matching_brace(code, i)
                except ScanError as error:
                    raise ScanError("%s:%d: %s" % (path, lines.of(i), error)) from None
                if kind == "function":
                    first = head_start + len(head) - len(head.lstrip())
                    first += _decoration_length(head.lstrip())
                    classes = [n for k, n in scopes if k == "class" and n]
                    qualified = "::".join(classes + [name or "?"])
                    functions.append(Function(path, qualified, lines.of(first), lines.of(end)))
                    head_start = end + 1
                i = end
        i += 1
    if scopes:
        raise ScanError("%s: %d scope(s) still open at the end of the file" % (path, len(scopes)))
    return functions


def _decoration_length(head):
    """How many characters of `head` (stripped on the left) are Qt macros such as Q_OBJECT or
    Q_INTERFACES(...) written before the signature without a semicolon."""
    match = re.match(r"(?:Q_[A-Z_]+\s*(?:\([^()]*\))?\s*)+(?=\S)", head)
    return match.end() if match else 0


# ---------------------------------------------------------------------------------------------
# The repository.

def source_files(root=REPO_ROOT):
    for top in ROOTS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def long_functions(root=REPO_ROOT, limit=LIMIT):
    found = []
    for path in source_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            found += [fn for fn in scan(f.read(), path) if fn.length > limit]
    return found


def long_files(root=REPO_ROOT, file_limits=None):
    """(path, lines, limit) for each file over its folder's limit in FILE_LIMITS."""
    found = []
    for folder, limit in (FILE_LIMITS if file_limits is None else file_limits).items():
        for directory, _, names in sorted(os.walk(os.path.join(root, folder))):
            for name in sorted(n for n in names if n.endswith(SUFFIXES)):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as f:
                    lines = sum(1 for _ in f)
                if lines > limit:
                    found.append((os.path.relpath(path, root), lines, limit))
    return found


def check(root=REPO_ROOT, limit=LIMIT, exceptions=None, pending=None):
    """(problems, allowed): one line per function over the limit that no list names and per
    list entry that names no long function; and the long functions the lists allow."""
    exceptions = EXCEPTIONS if exceptions is None else exceptions
    pending = PENDING if pending is None else pending
    problems, allowed, matched = [], [], set()
    for fn in long_functions(root, limit):
        key = (fn.path, fn.name)
        if key in exceptions or key in pending:
            matched.add(key)
            allowed.append(fn)
        else:
            problems.append("%s:%d: %s is %d lines (the limit is %d): split it into named steps"
                            % (fn.path, fn.first_line, fn.name, fn.length, limit))
    for path, lines, limit_lines in long_files(root):
        problems.append("%s is %d lines (the limit in its folder is %d): move its logic to a "
                        "presenter or split it by purpose" % (path, lines, limit_lines))
    for listed, title in ((exceptions, "EXCEPTIONS"), (pending, "PENDING")):
        for key in sorted(set(listed) - matched):
            problems.append("%s: %s in %s is no longer over %d lines (or was renamed): remove it "
                            "from the list" % (key[0], key[1], title, limit))
    return problems, allowed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=REPO_ROOT, help="the repository (default: this one)")
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--all", action="store_true",
                        help="list every function over the limit, the allowed ones too")
    args = parser.parse_args(argv)
    try:
        problems, allowed = check(args.root, args.limit)
    except ScanError as error:
        print("cannot scan: %s" % error, file=sys.stderr)
        return 2
    if args.all:
        for fn in sorted(allowed, key=lambda f: -f.length):
            print("%s:%d: %s is %d lines (allowed)" % (fn.path, fn.first_line, fn.name, fn.length))
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
