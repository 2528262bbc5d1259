/// One file of the page.
struct WebAsset: Sendable {
    var contentType: String
    /// The file's text, without its final line break.
    var body: String
}
