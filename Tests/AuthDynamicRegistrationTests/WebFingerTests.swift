import AuthCore
import AuthDynamicRegistration
import AuthTesting
import Foundation
import Testing

@Suite("WebFinger issuer discovery (RFC 7033, OpenID Connect Discovery §2)")
struct WebFingerTests {
    static func finger(href: JSONValue?, status: Int = 200, seen: LockedRequests = LockedRequests()) -> WebFinger {
        let transport = InProcessTransport().adding(host: "example.test") { request in
            seen.append(request)
            var links: [JSONValue] = [["rel": "http://webfinger.net/rel/profile-page", "href": "https://example.test/alice"]]
            if let href { links.append(["rel": .string(WebFinger.issuerRelation), "href": href]) }
            return ScriptedIssuer.json(["subject": "acct:alice@example.test", "links": .array(links)], status: status)
        }
        return WebFinger(transport: transport)
    }

    @Test("acct:, a bare user@host and a URL ask the host's /.well-known/webfinger with the resource and the issuer rel")
    func requestURL() throws {
        let acct = try WebFinger.requestURL(for: "acct:alice@example.test")
        #expect(acct.absoluteString == "https://example.test/.well-known/webfinger?resource=acct:alice@example.test&rel=http://openid.net/specs/connect/1.0/issuer")
        #expect(try WebFinger.requestURL(for: "alice@example.test") == acct)
        let loopback = try WebFinger.requestURL(for: "acct:rp.test@127.0.0.1:8870")
        #expect(loopback.absoluteString.hasPrefix("http://127.0.0.1:8870/.well-known/webfinger?resource=acct:rp.test@127.0.0.1:8870&"))
        let url = try WebFinger.requestURL(for: "https://example.test/joe")
        #expect(url.host == "example.test" && url.query?.contains("resource=https://example.test/joe") == true)
        #expect(throws: AuthError.self) { try WebFinger.requestURL(for: "acct:alice") }
    }

    @Test("The issuer link's href is the issuer")
    func findsIssuer() async throws {
        let seen = LockedRequests()
        #expect(try await Self.finger(href: "https://id.example.test", seen: seen).issuer(for: "acct:alice@example.test") == "https://id.example.test")
        #expect(seen.all.first?.url?.path == "/.well-known/webfinger")
    }

    @Test(
        "An issuer that is not https (plain http only on a loopback IP) is webfinger_insecure_issuer",
        arguments: ["http://id.example.test", "http://localhost:8080", "ftp://id.example.test", "https://id.example.test?x=1", "not a url"])
    func refusesInsecureIssuer(_ href: String) async throws {
        let error = await #expect(throws: AuthError.self) { try await Self.finger(href: .string(href)).issuer(for: "acct:alice@example.test") }
        #expect(error?.code == .webFingerInsecureIssuer)
    }

    @Test("A loopback-IP http issuer is accepted")
    func loopbackIssuer() async throws {
        #expect(try await Self.finger(href: "http://127.0.0.1:8870/rp/test").issuer(for: "acct:alice@example.test") == "http://127.0.0.1:8870/rp/test")
    }

    @Test("No issuer link, or no JSON answer, is discovery_failed")
    func noIssuer() async throws {
        let none = await #expect(throws: AuthError.self) { try await Self.finger(href: nil).issuer(for: "acct:alice@example.test") }
        #expect(none?.code == .discoveryFailed)
        let notFound = await #expect(throws: AuthError.self) { try await Self.finger(href: "https://id.example.test", status: 404).issuer(for: "acct:alice@example.test") }
        #expect(notFound?.code == .discoveryFailed)
    }
}
