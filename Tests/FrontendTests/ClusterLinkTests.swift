import Bridge
@testable import Frontend
import Testing

@Suite("Frontend in a cluster: a page's bridge requests go to this bridge's own API")
struct ClusterLinkTests {
    @Test("bridge/request/… goes under bridge/<id>/; device commands and other topics stay as they are")
    func requests() {
        let cluster = FrontendLink(tap: PublishTap(base: "t2m"), inbox: BridgeInbox(), base: "t2m", isConnected: { true }, bridgeID: "kitchen")
        #expect(cluster.topic(of: ClientFrame(topic: "bridge/request/permit_join", payload: [])) == "bridge/kitchen/request/permit_join")
        #expect(cluster.topic(of: ClientFrame(topic: "bridge/request/device/rename", payload: [])) == "bridge/kitchen/request/device/rename")
        #expect(cluster.topic(of: ClientFrame(topic: "lamp/set", payload: [])) == "lamp/set")
        #expect(cluster.topic(of: ClientFrame(topic: "bridge/requested", payload: [])) == "bridge/requested")
        let alone = FrontendLink(tap: PublishTap(base: "t2m"), inbox: BridgeInbox(), base: "t2m", isConnected: { true })
        #expect(alone.topic(of: ClientFrame(topic: "bridge/request/permit_join", payload: [])) == "bridge/request/permit_join")
    }
}
