#!/usr/bin/env python3
"""The arena's size and shape, measured the same way every time (run from anywhere):

- games:      lines of host/src/games without tests (.rs, .js, .html, .css; no `tests` folder, no
              file ending in tests.rs, no `#[cfg(test)] mod tests` at a file's end);
- long fns:   production functions of the workspace's Rust (no tests, benches, fuzz or example
              agents) longer than 100 lines, from `fn` to its closing brace;
- long files: production Rust files longer than 500 lines without their tests;
- cycles:     pairs of the host's top-level modules (host/src/<m>/ or host/src/<m>.rs) that import
              each other (`crate::<m>` in code outside tests).

`duplicates --most 200` is the fifth figure: its first line's pairs minus those it marks boilerplate.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TEST_MARK = "\n#[cfg(test)]\nmod tests"


def strip_tests(text):
    i = text.find(TEST_MARK)
    return text[:i] if i >= 0 else text


def is_test_path(rel):
    parts = rel.split(os.sep)
    return "tests" in parts or parts[-1].endswith("tests.rs")


def walk(top, exts):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in ("target", "node_modules", ".git"))
        for f in sorted(filenames):
            if f.endswith(exts):
                yield os.path.join(dirpath, f)


def games_lines(strip=True):
    total = 0
    for path in walk(os.path.join(ROOT, "host/src/games"), (".rs", ".js", ".html", ".css")):
        rel = os.path.relpath(path, ROOT)
        if is_test_path(rel):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
            total += (strip_tests(text) if strip else text).count("\n")
    return total


def production_rust():
    skip = ("fuzz", "example-agents", "target", "tests")
    for path in walk(ROOT, (".rs",)):
        rel = os.path.relpath(path, ROOT)
        parts = rel.split(os.sep)
        if parts[0] in skip or "benches" in parts or "templates" in parts or is_test_path(rel):
            continue
        with open(path, encoding="utf-8") as f:
            yield rel, strip_tests(f.read())


def blank_literals(text):
    """The text with comments, strings and chars blanked (braces in them do not count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                out.append("' '")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


FN = re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"C\"\s+)?fn\s+(\w+)", re.M)


def long_functions(limit=100):
    found = []
    for rel, text in production_rust():
        code = blank_literals(text)
        for m in FN.finditer(code):
            # the body: the first `{` at bracket depth 0 after the name, unless a `;` comes first
            depth, i = 0, m.end()
            while i < len(code):
                c = code[i]
                if c in "([<":
                    depth += 1
                elif c in ")]>" and code[i - 1] != "-":
                    depth -= 1
                elif c == ";" and depth <= 0:
                    i = -1
                    break
                elif c == "{" and depth <= 0:
                    break
                i += 1
            if i < 0 or i >= len(code):
                continue
            level, j = 0, i
            while j < len(code):
                if code[j] == "{":
                    level += 1
                elif code[j] == "}":
                    level -= 1
                    if level == 0:
                        break
                j += 1
            start = code.count("\n", 0, m.start()) + 1
            end = code.count("\n", 0, j) + 1
            if end - start + 1 > limit:
                found.append((end - start + 1, f"{rel}:{start} {m.group(1)}"))
    return sorted(found, reverse=True)


def long_files(limit=500):
    found = []
    for rel, text in production_rust():
        n = text.count("\n")
        if n > limit:
            found.append((n, rel))
    return sorted(found, reverse=True)


def cycles():
    src = os.path.join(ROOT, "host/src")
    mods = {}
    for entry in sorted(os.listdir(src)):
        name = entry[:-3] if entry.endswith(".rs") else entry
        if name in ("lib", "main", "bin"):
            continue
        mods.setdefault(name, [])
        path = os.path.join(src, entry)
        files = [path] if entry.endswith(".rs") else list(walk(path, (".rs",)))
        for f in files:
            if is_test_path(os.path.relpath(f, src)):
                continue
            with open(f, encoding="utf-8") as fh:
                mods[name].append(blank_literals(strip_tests(fh.read())))
    uses = {}
    for name, texts in mods.items():
        text = "\n".join(texts)
        refs = set(re.findall(r"\bcrate::(\w+)", text))
        # `use crate::{a::..., b::...}`
        for group in re.findall(r"\bcrate::\{([^;]*)\}", text):
            refs |= set(re.findall(r"(?:^|[{,]\s*)(\w+)", group))
        uses[name] = {r for r in refs if r in mods and r != name}
    pairs = sorted({tuple(sorted((a, b))) for a in uses for b in uses[a] if a in uses.get(b, ())})
    return pairs


def duplicates():
    try:
        out = subprocess.run(["duplicates", "--most", "200", "--seconds", "300"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    first = out.splitlines()[0]
    m = re.match(r"(\d+) pairs.*?(\d+) of those marked boilerplate", first)
    return int(m.group(1)) - int(m.group(2)) if m else first


def main():
    verbose = "-v" in sys.argv
    print(f"games lines without tests: {games_lines()} ({games_lines(False)} with files' own test modules)")
    for what, found in [
        ("production functions over 100 lines", long_functions()),
        ("production files over 500 lines without tests", long_files()),
    ]:
        print(f"{what}: {len(found)}")
        if verbose:
            for n, where in found:
                print(f"  {n:4} {where}")
    pairs = cycles()
    print(f"host module pairs importing each other: {len(pairs)}")
    if verbose:
        for a, b in pairs:
            print(f"  {a} <-> {b}")
    print(f"duplicates pairs not boilerplate: {duplicates()}")


if __name__ == "__main__":
    main()
