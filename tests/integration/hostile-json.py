#!/usr/bin/env python3
# hostile-json.py - every JSON hotpath-cli writes parses, whatever the capture's names
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A capture is mailed around, and its names are whatever the profiled
# program (or whoever edited the file) made them: control characters,
# U+001F (which json-glib 1.6 writes raw), C1 controls, U+2028, invalid
# UTF-8, quotes, backslashes, SQL. Every command with JSON output, and the
# document `summary --suggest` hands a summarizer, is read here with
# Python's json module, which refuses a raw control character in a string,
# and the names must come back as the capture holds them.
#
# usage: hostile-json.py HOTPATH-CLI

import json
import os
import sqlite3
import subprocess
import sys
import tempfile

HOSTILE = [
    b"unit\x1fsep",                  # what json-glib writes raw
    b"bell\x07\x01\x7fdel",
    b"c1\xc2\x85next\xe2\x80\xa8line",
    b"bad\xff\xfeutf8",
    b'quote"back\\slash',
    b"sql'); DROP TABLE samples;--",
    b"tab\tnew\rline",
]


def run(cli, *args, env=None, check=True):
    res = subprocess.run([cli, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    if check and res.returncode != 0:
        sys.exit("FAIL: hotpath-cli %s: exit %d: %s" % (" ".join(map(repr, args)), res.returncode,
                                                        res.stderr.decode(errors="replace")))
    return res


def load(what, data):
    try:
        return json.loads(data.decode("utf-8"))  # strict: no raw control character
    except (ValueError, UnicodeDecodeError) as e:
        sys.exit("FAIL: %s: not valid JSON: %s\n%r" % (what, e, data[:400]))


def names_in(doc):
    """Every string anywhere in the document."""
    out = set()
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            out.add(v)
    return out


def expected(name):
    return name.decode("utf-8", errors="replace")


def main():
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="hostile-json-") as tmp:
        folded = os.path.join(tmp, "hostile.folded")
        with open(folded, "wb") as f:
            for i in range(len(HOSTILE)):
                f.write(b"main;name%d;leaf%d %d\n" % (i, i, i + 1))
        captures = []
        for n in ("a", "b"):
            path = os.path.join(tmp, n + ".hotpath")
            run(cli, "import", folded, "-o", path)
            # the names as another program wrote them (folded stacks could
            # hold neither ';' nor invalid UTF-8)
            db = sqlite3.connect(path)
            for i, name in enumerate(HOSTILE):
                db.execute("UPDATE functions SET name = CAST(? AS TEXT) WHERE name = ?", (name, "name%d" % i))
            db.commit()
            db.close()
            captures.append(path)
        cap = captures[0]
        path = "main;" + HOSTILE[0].decode()
        run(cli, "summary", cap, path, "--set", "text\x1f with \x01 controls\u2028and \"quotes\"")

        docs = {
            "report": run(cli, "report", cap, "--format", "json").stdout,
            "report --tree": run(cli, "report", cap, "--format", "json", "--tree", "--threshold", "0").stdout,
            "report --callers": run(cli, "report", cap, "--format", "json", "--callers", "leaf0").stdout,
            "report --callees": run(cli, "report", cap, "--format", "json", "--callees", "main").stdout,
            "summary --format json": run(cli, "summary", cap, "--format", "json").stdout,
            "export speedscope": run(cli, "export", cap, "--format", "speedscope", "-o", "-").stdout,
            "export firefox": run(cli, "export", cap, "--format", "firefox", "-o", "-").stdout,
            "diff": run(cli, "diff", captures[0], captures[1], "--format", "json").stdout,
        }

        # the document Suggest hands the summarizer, read by the summarizer
        seen = os.path.join(tmp, "suggest.json")
        env = dict(os.environ)
        env["HOTPATH_SUMMARIZER"] = "sh -c 'cat > %s; echo drafted'" % seen
        run(cli, "summary", cap, "main;" + HOSTILE[0].decode() + ";leaf0", "--suggest", env=env)
        with open(seen, "rb") as f:
            docs["summary --suggest (summarizer input)"] = f.read()

        failed = []
        for what, data in docs.items():
            doc = load(what, data)
            strings = names_in(doc)
            if what.startswith("summary --suggest") or what == "summary --format json":
                continue
            missing = [expected(n) for n in HOSTILE
                       if not any(expected(n) in s for s in strings)]
            # --callers/--callees name only what they are about
            if missing and not what.startswith("report --call"):
                failed.append("%s: names missing or altered: %r" % (what, missing))
        summary = load("summary --format json", docs["summary --format json"])
        if "text\x1f with \x01 controls\u2028and \"quotes\"" not in names_in(summary):
            failed.append("summary --format json: the summary's text is altered")
        if failed:
            sys.exit("FAIL:\n" + "\n".join(failed))
    print("ok: %d JSON documents parse and keep the names" % len(docs))


if __name__ == "__main__":
    main()
