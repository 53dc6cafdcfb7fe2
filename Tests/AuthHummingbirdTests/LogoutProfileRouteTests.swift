#if HummingbirdSignIn
    import AuthCore
    import AuthHummingbird
    import AuthOIDC
    import AuthTesting
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing

    @Suite("web sign-in for Hummingbird: the logout profiles' and third-party login's routes")
    struct LogoutProfileRouteTests {
        @Test("signed-out, frontchannel-logout and initiate-login are routed to the core: hostile requests get their codes, the front-channel page is framable")
        func routes() async throws {
            let (app, _, _) = try FormPostRouteTests.application()
            try await app.test(.router) { client in
                let signedOut = try await client.execute(uri: "/auth/oidc/signed-out?state=forged", method: .get)
                #expect(signedOut.status == .badRequest)
                #expect(String(buffer: signedOut.body).contains("(sign_out_state_mismatch)"))
                #expect(signedOut.headers[values: .setCookie].isEmpty)

                let foreign = try await client.execute(uri: "/auth/oidc/frontchannel-logout?iss=https%3A%2F%2Fevil.example&sid=x", method: .get)
                #expect(foreign.status == .badRequest)
                #expect(String(buffer: foreign.body).contains("(front_channel_issuer_mismatch)"))
                let page = try await client.execute(uri: "/auth/oidc/frontchannel-logout?iss=https%3A%2F%2Fidp.example.test&sid=x", method: .get)
                #expect(page.status == .ok)
                #expect(page.headers[.cacheControl] == "no-cache, no-store")
                #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors https://idp.example.test") == true)
                #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == nil)

                let offSite = try await client.execute(
                    uri: "/auth/oidc/initiate-login?iss=https%3A%2F%2Fidp.example.test&target_link_uri=https%3A%2F%2Fevil.example%2F", method: .get)
                #expect(offSite.status == .badRequest)
                #expect(String(buffer: offSite.body).contains("(target_link_off_site)"))
                #expect(offSite.headers[values: .setCookie].isEmpty)
                let posted = try await client.execute(
                    uri: "/auth/oidc/initiate-login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "iss=https%3A%2F%2Fidp.example.test&login_hint=alice"))
                #expect(posted.status == .found)
                #expect(posted.headers[.location]?.contains("login_hint=alice") == true)
            }
        }
    }
#endif
