#!/usr/bin/env python3
"""Writes ICU's data for the daemon: the subset of the toolchain's ICU data that Foundation needs here.

Yams (the config's YAML) imports full Foundation, and a static Swift binary then carries ICU's whole data
package, 34 MB of locales, dictionaries, transliterators and legacy converters the bridge never uses. This
package keeps the root and English locales with the time zone, currency, unit, collation and break rules they
name, normalization and IDNA (URL hosts), and converter aliases; any other locale falls back to root, as ICU
does for a locale it has no data for. icudata.S defines the package under ICU's own entry symbol
(`icudt<version>_dat`); the executable's objects come before the toolchain's archives on the link line, so
the linker takes this package and never loads the archive's.

Run it again when the toolchain's ICU changes (a test checks the two match):

    python3 Sources/ICUData/make-icu-data.py            # writes icudt<N>l.dat and icudata.S here
    python3 Sources/ICUData/make-icu-data.py --check    # exit 1 if they differ from what it would write
"""
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Items kept, by name inside the package (without the `icudt<N>l/` prefix).
LOCALES = r"(root|en|en_US|en_US_POSIX|res_index|pool)"
KEEP = re.compile(
    r"^("
    # The locale bundles Foundation's Locale and its fallbacks read, in every tree they have one in.
    + LOCALES + r"\.res"
    + r"|(zone|curr|lang|region|unit|coll|rbnf|brkitr)/" + LOCALES + r"\.res"
    # Locale and calendar machinery that is not per locale.
    + r"|(icustd|supplementalData|likelySubtags|numberingSystems|keyTypeData|plurals|dayPeriods|units"
    + r"|currencyNumericCodes|genderList|grammaticalFeatures|curr/supplementalData)\.res"
    # Time zones (TZ, /etc/localtime, names in configs).
    + r"|(zoneinfo64|timezoneTypes|metaZones|windowsZones)\.res"
    # Normalization forms and IDNA for URL hosts; converter aliases; text layout properties.
    + r"|(uts46|nfkc|nfkc_cf)\.nrm|cnvalias\.icu|ulayout\.icu"
    # Root collation and the default break rules (no dictionaries: those are for CJK, Thai, Khmer, … words).
    + r"|coll/ucadata\.icu|brkitr/(char|word|word_POSIX|sent|line|title)\.brk"
    + r")$"
)


def toolchain_archive():
    """The toolchain's static ICU archive, beside the static Swift runtime."""
    info = subprocess.run(["swiftc", "-print-target-info"], check=True, capture_output=True, text=True).stdout
    resources = re.search(r'"runtimeResourcePath"\s*:\s*"([^"]+)"', info).group(1)
    return os.path.join(os.path.dirname(resources), "swift_static", "linux", "lib_FoundationICU.a")


def packaged_data(archive):
    """(symbol name, bytes) of the data package the archive's icu_packaged_data object defines."""
    elf = subprocess.run(["ar", "p", archive, "icu_packaged_data.cpp.o"], check=True, capture_output=True).stdout
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    symtab = next(s for s in sections if s[1] == 2)  # SHT_SYMTAB
    strtab = sections[symtab[6]]
    for offset in range(symtab[4], symtab[4] + symtab[5], 24):
        name_at, _, _, shndx, value, size = struct.unpack_from("<IBBHQQ", elf, offset)
        start = strtab[4] + name_at
        name = elf[start:elf.index(b"\0", start)].decode()
        if re.fullmatch(r"icudt\d+_dat", name):
            data_at = sections[shndx][4] + value
            return name, elf[data_at:data_at + size]
    sys.exit("no icudt*_dat symbol in " + archive)


def subset(package):
    """The package with only the kept items, in ICU's common data format (header, table of contents, items)."""
    header_size, = struct.unpack_from("<H", package, 0)
    count, = struct.unpack_from("<I", package, header_size)
    entries = [struct.unpack_from("<II", package, header_size + 4 + 8 * i) for i in range(count)]
    ends = [data for _, data in entries[1:]] + [len(package) - header_size]
    items = []
    for (name_at, data_at), end in zip(entries, ends):
        start = header_size + name_at
        name = package[start:package.index(b"\0", start)]
        if KEEP.match(name.decode().split("/", 1)[1]):
            items.append((name, package[header_size + data_at:header_size + end]))
    pad = lambda length: b"\0" * (-length % 16)
    toc_size = 4 + 8 * len(items)
    names, name_offsets = b"", []
    for name, _ in items:
        name_offsets.append(toc_size + len(names))
        names += name + b"\0"
    names += pad(toc_size + len(names))
    data, data_offsets = b"", []
    for _, body in items:
        data_offsets.append(toc_size + len(names) + len(data))
        data += body + pad(len(body))
    toc = struct.pack("<I", len(items)) + b"".join(struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets))
    return package[:header_size] + toc + names + data, len(items), count


def assembly(symbol, file):
    return (
        "// Written by make-icu-data.py: ICU's data package for the daemon, under ICU's entry symbol.\n"
        f'    .section .rodata.{symbol},"a",@progbits\n'
        "    .balign 16\n"
        f"    .globl {symbol}\n"
        f"    .type {symbol}, @object\n"
        f"{symbol}:\n"
        f'    .incbin "{file}"\n'
        f"    .size {symbol}, . - {symbol}\n"
        '    .section .note.GNU-stack,"",@progbits\n'
    )


def main():
    symbol, package = packaged_data(toolchain_archive())
    trimmed, kept, total = subset(package)
    file = symbol.replace("_dat", "l.dat")
    wanted = {file: trimmed, "icudata.S": assembly(symbol, file).encode()}
    stale = [name for name in os.listdir(HERE) if re.fullmatch(r"icudt\d+l\.dat", name) and name != file]
    if "--check" in sys.argv:
        differ = [name for name, body in wanted.items()
                  if not os.path.exists(os.path.join(HERE, name)) or open(os.path.join(HERE, name), "rb").read() != body]
        if differ or stale:
            sys.exit(f"out of date with the toolchain's ICU: {', '.join(differ + stale)}; run {sys.argv[0]}")
        print(f"{symbol}: {kept} of {total} items, {len(trimmed)} of {len(package)} bytes, up to date")
        return
    for name in stale:
        os.remove(os.path.join(HERE, name))
    for name, body in wanted.items():
        with open(os.path.join(HERE, name), "wb") as out:
            out.write(body)
    print(f"{symbol}: {kept} of {total} items, {len(trimmed)} of {len(package)} bytes")


main()
