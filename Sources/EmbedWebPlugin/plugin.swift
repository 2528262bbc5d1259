import Foundation
import PackagePlugin

/// Compiles the page's files (the target's `Web` folder) into the target as `WebAssets.files`, through
/// `embed-web`, whenever one of them changes.
@main
struct EmbedWeb: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let web = target.directoryURL.appending(path: "Web")
        let files = try FileManager.default.contentsOfDirectory(at: web, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssets.swift")
        return [
            .buildCommand(
                displayName: "Compiling the web page's files into \(target.name)",
                executable: try context.tool(named: "embed-web").url,
                arguments: [output.path] + files.map(\.path), inputFiles: files, outputFiles: [output])
        ]
    }
}
