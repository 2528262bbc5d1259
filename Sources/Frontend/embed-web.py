#!/usr/bin/env python3
"""Writes WebAssets.swift from the files in Web/: the page is compiled into the binary, so an installed
daemon (a container holds the binary alone) needs no resource folder. Run after changing a file in Web/;
FrontendTests fails while the two differ."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}


def literal(text):
    hashes = "#"
    while '"""' + hashes in text or "\\" + hashes in text:
        hashes += "#"
    body = text[:-1] if text.endswith("\n") else text
    return hashes + '"""\n' + body + '\n"""' + hashes


def main():
    web = os.path.join(HERE, "Web")
    lines = [
        "// Written by embed-web.py from the files in Web/; edit those and run it again.",
        "",
        "/// The page's files, compiled in.",
        "enum WebAssets {",
        "    /// Each file by name.",
        "    static let files: [String: WebAsset] = [",
    ]
    for name in sorted(os.listdir(web)):
        extension = os.path.splitext(name)[1]
        if extension not in TYPES:
            sys.exit(f"embed-web.py: no content type for {name}")
        with open(os.path.join(web, name), encoding="utf-8") as handle:
            text = handle.read()
        lines.append(f'        "{name}": WebAsset(')
        lines.append(f'            contentType: "{TYPES[extension]}",')
        lines.append("            body: " + literal(text) + "),")
    lines += ["    ]", "}", ""]
    with open(os.path.join(HERE, "WebAssets.swift"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


main()
