import ArgumentParser

/// `things2mqtt simulate …`: device simulators for demos and tests.
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a device simulator.", subcommands: [])
}
