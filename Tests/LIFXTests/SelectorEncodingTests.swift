import Foundation
@testable import LIFXDriver
import Testing

/// A selector goes into the URL's path as one segment, percent-encoded as Foundation would encode it.
@Suite struct SelectorEncodingTests {
    @Test(arguments: ["all", "id:d073d5000001", "label:Living Room", "group:Kitchen/Island", "scene_id:a?b#c%d|e", "location:Ünï©ødé 🏠", "a+b=c&d;e@f"])
    func asFoundationEncodesAPathSegment(_ selector: String) {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%|")
        #expect(LIFXClient.encode(selector) == selector.addingPercentEncoding(withAllowedCharacters: allowed))
    }
}
