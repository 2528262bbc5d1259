#!/usr/bin/env python3
"""Writes link-order.txt: the functions the daemon ran, in the order the linker should place them first.

The release binary is linked with this file (lld's --symbol-ordering-file, see Package.swift), so the code the
daemon runs sits together at the start of .text instead of spread over 29 MB. The kernel maps code pages on
first use and their neighbours with them (fault-around), so spread-out code keeps far more of the binary
resident than the daemon ever runs. Names the binary no longer has are skipped by the linker; a stale file
only places less code well.

    make-link-order.py LINK_MAP CALLGRIND_OUT... > link-order.txt

LINK_MAP is lld's -Map output of the binary that ran; each CALLGRIND_OUT is a callgrind profile of that binary
with --dump-instr=yes, stripped (valgrind cannot read the toolchain's DWARF 5), so code is named by address. make-link-order.sh
produces both.
"""

import bisect
import re
import sys

LINE = re.compile(r"\s*([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+\S+ (\s*)(.*)")


def text_symbols(link_map):
    """(address, name) of every symbol lld placed in .text, by address."""
    symbols, section = [], None
    with open(link_map) as lines:
        for line in lines:
            match = LINE.match(line.rstrip("\n"))
            if not match:
                continue
            depth, what = len(match.group(4)), match.group(5)
            if depth == 0:
                section = what
            elif section == ".text" and depth == 16:
                symbols.append((int(match.group(1), 16), what))
    symbols.sort()
    return symbols


def executed_addresses(profile, binary_name):
    """Addresses of the instructions of `binary_name` that ran, from a callgrind profile written with
    --dump-instr=yes. Instructions rather than function entries: code entered by a jump (an async function's
    continuation, a thunk's tail call) has no entry of its own in the profile."""
    objects, current, ran, position = {}, None, set(), 0
    name = re.compile(r"^(c?)ob=\((\d+)\)(?: (.*))?")
    with open(profile) as lines:
        for line in lines:
            match = name.match(line)
            if match:
                called, number, text = match.groups()
                if text:
                    objects[number] = text.strip()
                if not called:
                    current = number
                continue
            # Cost lines start with the instruction's address: absolute, relative to the last one, or the same.
            first = line.split(" ", 1)[0]
            if first.startswith("0x"):
                position = int(first, 16)
            elif first[:1] in ("+", "-") and first[1:].isdigit():
                position += int(first)
            elif first != "*":
                continue
            if binary_name in objects.get(current, ""):
                ran.add(position)
    return ran


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    symbols = text_symbols(sys.argv[1])
    starts = [address for address, _ in symbols]
    addresses = set()
    for profile in sys.argv[2:]:
        addresses |= executed_addresses(profile, "things2mqtt")
    names, seen = [], set()
    for address in sorted(addresses):
        # The function holding the instruction, under every name at its address (aliases share a section).
        index = bisect.bisect_right(starts, address) - 1
        if index < 0 or starts[index] in seen:
            continue
        start = starts[index]
        seen.add(start)
        names.extend(name for _, name in symbols[bisect.bisect_left(starts, start):index + 1])
    if not names:
        sys.exit("no function of the binary found in the profiles")
    print(f"{len(names)} functions ran ({len(addresses)} instructions)", file=sys.stderr)
    sys.stdout.write("".join(name + "\n" for name in names))


if __name__ == "__main__":
    main()
