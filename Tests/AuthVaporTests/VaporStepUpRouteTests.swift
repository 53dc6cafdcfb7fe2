#if VaporSignIn
    import AuthCore
    import AuthTesting
    import AuthVapor
    import Foundation
    import Testing
    import VaporTesting

    @Suite("Step-up routes for Vapor: a route requires an acr or a recent authentication (RFC 9470 §4 on the server)")
    struct VaporStepUpRouteTests {
        static let multiFactor = TestIdentityProvider.StepUpSettings.multiFactorClass

        /// Adds `/vault` (requires `loa:2`), `/recent` (at most 300 s old) and `/acr` (the session's class) to `app`.
        static func addRoutes(_ app: Application, _ harness: VaporWebSignInHarness) {
            app.grouped(harness.webSignIn.requiring(WebAuthenticationRequirement(acrValues: [multiFactor]))).get("vault") { request -> String in
                "vault for \(request.signedInUser?.subject ?? "?") at \(request.signedInUser?.record.authenticationClass ?? "?")"
            }
            app.grouped(harness.webSignIn.requiring(WebAuthenticationRequirement(maxAge: 300))).get("recent") { _ -> String in "recent" }
            app.grouped(harness.webSignIn.requiring(WebAuthenticationRequirement(acrValues: [multiFactor]))).post("guarded-post") { _ -> String in "done" }
            app.get("acr") { request -> String in request.signedInUser.map { $0.record.authenticationClass ?? "?" } ?? "nobody" }
        }

        @Test("A session short of the route's acr goes through a step-up sign-in and back; the new session records the stronger acr")
        func stepUpToACR() async throws {
            let harness = try VaporWebSignInHarness(clock: ManualClock(), stepUp: true)
            try await harness.withApplication { app in
                Self.addRoutes(app, harness)
                var jar = VaporCookieJar()
                try await harness.signIn(app, jar: &jar)
                let oldSession = try #require(jar.values[WebSignInConfiguration.sessionCookieName])
                #expect(String(buffer: try await app.testing().sendRequest(.GET, "/acr", headers: jar.headers).body) == TestIdentityProvider.StepUpSettings.passwordClass)

                let challenged = try await app.testing().sendRequest(.GET, "/vault?tab=2", headers: jar.headers)
                #expect(challenged.status == .found)
                jar.update(from: challenged)
                let location = try #require(challenged.headers.first(name: .location).flatMap(URL.init(string:)))
                let query = Dictionary(FormEncoding.decode(location.query ?? ""), uniquingKeysWith: { a, _ in a })
                #expect(query["acr_values"] == Self.multiFactor)

                let done = try await app.testing().sendRequest(.GET, try await harness.followToProvider(location.absoluteString), headers: jar.headers)
                #expect(done.status == .seeOther)
                #expect(done.headers.first(name: .location) == "/vault?tab=2")
                jar.update(from: done)
                let vault = try await app.testing().sendRequest(.GET, "/vault", headers: jar.headers)
                #expect(vault.status == .ok)
                #expect(String(buffer: vault.body) == "vault for user-1234 at \(Self.multiFactor)")
                let old = try await app.testing().sendRequest(.GET, "/acr", headers: ["Cookie": "\(WebSignInConfiguration.sessionCookieName)=\(oldSession)"])
                #expect(String(buffer: old.body) == "nobody", "the weaker session ended")
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1)
            }
        }

        @Test("A route's max_age: an authentication older than it sends the browser through a step-up with max_age")
        func stepUpToRecentAuthentication() async throws {
            let clock = ManualClock()
            let harness = try VaporWebSignInHarness(clock: clock, stepUp: true)
            try await harness.withApplication { app in
                Self.addRoutes(app, harness)
                var jar = VaporCookieJar()
                try await harness.signIn(app, jar: &jar)
                #expect(try await app.testing().sendRequest(.GET, "/recent", headers: jar.headers).status == .ok)
                clock.advance(by: 600)
                let challenged = try await app.testing().sendRequest(.GET, "/recent", headers: jar.headers)
                #expect(challenged.status == .found)
                jar.update(from: challenged)
                let location = try #require(challenged.headers.first(name: .location))
                #expect(location.contains("max_age=300"))
                let done = try await app.testing().sendRequest(.GET, try await harness.followToProvider(location), headers: jar.headers)
                #expect(done.headers.first(name: .location) == "/recent")
                jar.update(from: done)
                #expect(try await app.testing().sendRequest(.GET, "/recent", headers: jar.headers).status == .ok)
            }
        }

        @Test("Hostile: a step-up that authenticates another user is 400 subject_mismatch; the old session stays, nothing stored")
        func anotherUser() async throws {
            let harness = try VaporWebSignInHarness(clock: ManualClock(), stepUp: true)
            try await harness.withApplication { app in
                Self.addRoutes(app, harness)
                var jar = VaporCookieJar()
                try await harness.signIn(app, jar: &jar)
                let keys = try await harness.store.tokenStorage.storedKeys()
                await harness.idp.setUser(TestIdentityProvider.User(subject: "mallory", claims: [:]))
                let challenged = try await app.testing().sendRequest(.GET, "/vault", headers: jar.headers)
                jar.update(from: challenged)
                let location = try #require(challenged.headers.first(name: .location))
                let done = try await app.testing().sendRequest(.GET, try await harness.followToProvider(location), headers: jar.headers)
                #expect(done.status == .badRequest)
                #expect(String(buffer: done.body).contains("(subject_mismatch)"))
                jar.update(from: done)
                #expect(Set(try await harness.store.tokenStorage.storedKeys()) == Set(keys))
                #expect(String(buffer: try await app.testing().sendRequest(.GET, "/acr", headers: jar.headers).body) == TestIdentityProvider.StepUpSettings.passwordClass)
            }
        }

        @Test("A POST short of the requirement is 403 step_up_required; no session is 401 not_signed_in")
        func notRedirected() async throws {
            let harness = try VaporWebSignInHarness(clock: ManualClock(), stepUp: true)
            try await harness.withApplication { app in
                Self.addRoutes(app, harness)
                let anonymous = try await app.testing().sendRequest(.GET, "/vault")
                #expect(anonymous.status == .unauthorized)
                var jar = VaporCookieJar()
                try await harness.signIn(app, jar: &jar)
                let posted = try await app.testing().sendRequest(.POST, "/guarded-post", headers: jar.headers)
                #expect(posted.status == .forbidden)
                #expect(String(buffer: posted.body).contains("(step_up_required)"))
            }
        }
    }
#endif
