import AuthCore
import AuthEmulators
import AuthTesting
import AuthWebSignIn
import Foundation
import HTTPTypes
import Testing

/// The native sign-in route against web pages and unauthenticated floods: a request a page of another site can send
/// is refused before anything is read (login CSRF), and nothing is written before the ID token verifies.
@Suite("web sign-in core: the native route refuses web pages and writes nothing for a refused sign-in")
struct NativeSignInHostileTests {
    typealias Harness = NativeSignInTests.Harness

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    static func form(_ fields: [(String, String)]) -> Data {
        Data(fields.map { "\($0.0)=\(FormEncoding.escape($0.1))" }.joined(separator: "&").utf8)
    }

    static func json(_ fields: [(String, String)]) throws -> Data {
        try JSONSerialization.data(withJSONObject: Dictionary(fields, uniquingKeysWith: { first, _ in first }))
    }

    @Test(
        "Hostile: a native sign-in a page of another site can send (a form, text/plain, no type, a foreign Origin, Sec-Fetch-Site cross-site or same-site) is 403 cross_site_request; nothing stored, and the app's own request then signs in with the same credential"
    )
    func crossSite() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: nonce)  // the attacker's own sign-in
        let fields = Harness.fields(credential, nonce: nonce)
        let attempts: [(String, Data, HTTPFields)] = [
            (
                "the review's login CSRF: a cross-site form", Self.form(fields),
                [.contentType: "application/x-www-form-urlencoded", .origin: "https://attacker.example", Self.secFetchSite: "cross-site"]
            ),
            ("a form without Origin or Sec-Fetch-Site (an older browser)", Self.form(fields), [.contentType: "application/x-www-form-urlencoded"]),
            ("JSON in a text/plain form", try Self.json(fields), [.contentType: "text/plain"]),
            ("a multipart form", try Self.json(fields), [.contentType: "multipart/form-data; boundary=x"]),
            ("a body without a type (no-cors fetch of a Blob)", try Self.json(fields), [:]),
            ("JSON from another origin", try Self.json(fields), [.contentType: "application/json", .origin: "https://attacker.example"]),
            ("JSON from a sibling site", try Self.json(fields), [.contentType: "application/json", Self.secFetchSite: "same-site"]),
            ("JSON with Origin null", try Self.json(fields), [.contentType: "application/json", .origin: "null"])
        ]
        for (what, body, headers) in attempts {
            let refused = try await harness.signIn(body: body, headerFields: headers)
            #expect(refused.status == .forbidden, "\(what)")
            #expect(try harness.error(refused) == "cross_site_request", "\(what)")
            #expect(refused.headerFields[values: .setCookie].isEmpty, "\(what)")
            #expect(try await harness.storedNothing(), "\(what)")
        }
        // A page of the app itself may call the route with JSON; an app's HTTP client sends neither header.
        let own = try await harness.signIn(
            body: try Self.json(fields),
            headerFields: [.contentType: "application/json", .origin: "https://app.example.test", Self.secFetchSite: "same-origin"]
        )
        #expect(own.status == .ok)
        #expect(await harness.store.sessionCount == 1)
    }

    @Test("An app's request (application/json, no Origin, no Sec-Fetch-*) signs in")
    func appRequest() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: nonce)
        let response = try await harness.signIn(body: try Self.json(Harness.fields(credential, nonce: nonce)), headerFields: [.contentType: "application/json; charset=utf-8"])
        #expect(response.status == .ok)
        #expect(response.headerFields[values: .setCookie].contains { $0.hasPrefix(WebSignInConfiguration.sessionCookieName + "=") })
    }

    @Test("Hostile flood: 1,000 unauthenticated nonce + garbage ID token pairs are each 400 and leave no used-nonce mark, no session, no credential")
    func garbageFlood() async throws {
        let harness = try Harness()
        for _ in 0..<1000 {
            let nonce = try await harness.nonce()
            let refused = try await harness.signIn([("id_token", "x"), ("code", "y"), ("nonce", nonce)])
            #expect(refused.status == .badRequest)
            #expect(try harness.error(refused) != "nonce_replayed")
        }
        #expect(try await harness.storedNothing())
    }

    @Test("Hostile: an ID token for another nonce is 400 nonce_mismatch and does not use the posted nonce up: its own credential then signs in with it")
    func verifiedBeforeMarked() async throws {
        let harness = try Harness()
        let posted = try await harness.nonce()
        let other = try await harness.nonce()
        let foreign = try await harness.emulator.appleNativeSignIn(nonce: other)
        let refused = try await harness.signIn(Harness.fields(foreign, nonce: posted))
        #expect(refused.status == .badRequest)
        #expect(try harness.error(refused) == "nonce_mismatch")
        #expect(try await harness.storedNothing())
        let own = try await harness.emulator.appleNativeSignIn(nonce: posted)
        #expect(try await harness.signIn(Harness.fields(own, nonce: posted)).status == .ok)
        #expect(await harness.store.markCount == 1)
    }

    @Test("Used-nonce marks are swept on a timer of the app's clock, with no sign-in completing after them")
    func marksSweptOnTimer() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: nonce)
        #expect(try await harness.signIn(Harness.fields(credential, nonce: nonce)).status == .ok)
        #expect(await harness.store.markCount == 1)
        try await Self.eventually { harness.clock.sleeperCount > 0 }  // the sweeper waits for its minute
        harness.clock.advance(by: 601)  // past the nonce's ten minutes and the sweeper's interval
        try await Self.eventually { await harness.store.markSweeps > 0 }
        #expect(await harness.store.markCount == 0)
    }

    /// Waits (at most 10 s of real time) until `condition` holds.
    static func eventually(_ condition: () async -> Bool) async throws {
        for _ in 0..<1000 {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the condition did not hold within 10 s")
    }
}
