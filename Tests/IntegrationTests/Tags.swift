import Testing

extension Tag {
    /// Tests that run against a real mosquitto broker started by the test.
    @Tag static var integration: Self
    /// Tests that run the built `things2mqtt` binary as a child process.
    @Tag static var process: Self
}
