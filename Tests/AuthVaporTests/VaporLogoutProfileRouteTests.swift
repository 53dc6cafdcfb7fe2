#if VaporSignIn
    import AuthCore
    import AuthTesting
    import AuthVapor
    import Foundation
    import Testing
    import VaporTesting

    @Suite("web sign-in for Vapor: the logout profiles' and third-party login's routes")
    struct VaporLogoutProfileRouteTests {
        @Test("signed-out, frontchannel-logout and initiate-login are routed to the core: hostile requests get their codes, the front-channel page is framable")
        func routes() async throws {
            let harness = try VaporWebSignInHarness()
            try await harness.withApplication { app in
                let signedOut = try await app.testing().sendRequest(.GET, "/auth/oidc/signed-out?state=forged")
                #expect(signedOut.status == .badRequest)
                #expect(String(buffer: signedOut.body).contains("(sign_out_state_mismatch)"))
                #expect(signedOut.headers[.setCookie].isEmpty)

                let foreign = try await app.testing().sendRequest(.GET, "/auth/oidc/frontchannel-logout?iss=https%3A%2F%2Fevil.example&sid=x")
                #expect(foreign.status == .badRequest)
                #expect(String(buffer: foreign.body).contains("(front_channel_issuer_mismatch)"))
                let page = try await app.testing().sendRequest(.GET, "/auth/oidc/frontchannel-logout?iss=https%3A%2F%2Fidp.example.test&sid=x")
                #expect(page.status == .ok)
                #expect(page.headers.first(name: .cacheControl) == "no-cache, no-store")
                #expect(page.headers.first(name: "Content-Security-Policy")?.contains("frame-ancestors https://idp.example.test") == true)
                #expect(page.headers.first(name: "X-Frame-Options") == nil)

                let offSite = try await app.testing().sendRequest(
                    .GET, "/auth/oidc/initiate-login?iss=https%3A%2F%2Fidp.example.test&target_link_uri=https%3A%2F%2Fevil.example%2F")
                #expect(offSite.status == .badRequest)
                #expect(String(buffer: offSite.body).contains("(target_link_off_site)"))
                #expect(offSite.headers[.setCookie].isEmpty)
                var headers = HTTPHeaders()
                headers.contentType = .urlEncodedForm
                let posted = try await app.testing().sendRequest(
                    .POST, "/auth/oidc/initiate-login", headers: headers, body: ByteBuffer(string: "iss=https%3A%2F%2Fidp.example.test&login_hint=alice"))
                #expect(posted.status == .found)
                #expect(posted.headers.first(name: .location)?.contains("login_hint=alice") == true)
            }
        }
    }
#endif
