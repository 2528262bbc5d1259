import Foundation

// Writes the Swift source that compiles the page's files into the daemon (an installed binary, or a container
// holding the binary alone, needs no resource folder beside it). Run by the EmbedWeb build plugin on every build
// that changes a file in Sources/Frontend/Web: `embed-web <output.swift> <file>...`.

let types = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml",
]

/// A raw string literal holding `text` exactly (its final line break dropped), with enough `#`s.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
    return hashes + "\"\"\"\n" + body + "\n\"\"\"" + hashes
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: embed-web <output.swift> <file>...\n".utf8))
    exit(2)
}
var lines = [
    "// Written at build time by embed-web from the files in Sources/Frontend/Web.", "",
    "/// The page's files, compiled in.", "enum WebAssets {", "    /// Each file by name.",
    "    static let files: [String: WebAsset] = [",
]
for path in arguments.dropFirst().sorted() {
    let url = URL(fileURLWithPath: path)
    guard let type = types[url.pathExtension] else {
        FileHandle.standardError.write(Data("embed-web: no content type for \(url.lastPathComponent)\n".utf8))
        exit(1)
    }
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        FileHandle.standardError.write(Data("embed-web: cannot read \(path) as UTF-8\n".utf8))
        exit(1)
    }
    lines += [
        "        \"\(url.lastPathComponent)\": WebAsset(", "            contentType: \"\(type)\",",
        "            body: " + literal(text) + "),",
    ]
}
lines += ["    ]", "}", ""]
do {
    try lines.joined(separator: "\n").write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("embed-web: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
