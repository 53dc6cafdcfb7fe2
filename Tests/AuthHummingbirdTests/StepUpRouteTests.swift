#if HummingbirdSignIn
    import AuthCore
    import AuthHummingbird
    import AuthTesting
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing

    @Suite("Step-up routes for Hummingbird: a route requires an acr or a recent authentication (RFC 9470 §4 on the server)")
    struct StepUpRouteTests {
        static let multiFactor = TestIdentityProvider.StepUpSettings.multiFactorClass

        /// The harness's app plus `/vault` (requires `loa:2`) and `/recent` (an authentication at most 300 s old).
        static func application(_ harness: WebSignInHarness) -> some ApplicationProtocol {
            let router = Router(context: BasicWebSignInRequestContext.self)
            router.add(middleware: harness.webSignIn.middleware)
            harness.webSignIn.addRoutes(to: router)
            router.group("vault").add(middleware: harness.webSignIn.requiring(WebAuthenticationRequirement(acrValues: [multiFactor])))
                .get { _, context -> String in
                    let record = try require(context.signedInUser?.record)
                    return "vault for \(record.subject) at \(record.authenticationClass ?? "?")"
                }
            router.group("recent").add(middleware: harness.webSignIn.requiring(WebAuthenticationRequirement(maxAge: 300)))
                .get { _, _ -> String in "recent" }
            router.get("acr") { _, context -> String in context.signedInUser.map { $0.record.authenticationClass ?? "?" } ?? "nobody" }
            router.group("guarded-post").add(middleware: harness.webSignIn.requiring(WebAuthenticationRequirement(acrValues: [multiFactor])))
                .post { _, _ -> String in "done" }
            return Application(router: router)
        }

        @Test("A session short of the route's acr goes through a step-up sign-in and back; the new session records the stronger acr")
        func stepUpToACR() async throws {
            let clock = ManualClock()
            let harness = try WebSignInHarness(clock: clock, stepUp: true)
            try await Self.application(harness).test(.router) { client in
                var jar = CookieJar()
                try await WebSignInTests.signIn(client, harness, jar: &jar)
                let oldSession = try require(jar.values[WebSignInConfiguration.sessionCookieName])
                let before = try await client.execute(uri: "/acr", method: .get, headers: jar.header)
                #expect(String(buffer: before.body) == TestIdentityProvider.StepUpSettings.passwordClass)

                let challenged = try await client.execute(uri: "/vault?tab=2", method: .get, headers: jar.header)
                #expect(challenged.status == .found)
                jar.update(from: challenged)
                let location = try require(challenged.headers[.location].flatMap(URL.init(string:)))
                let query = Dictionary(FormEncoding.decode(location.query ?? ""), uniquingKeysWith: { a, _ in a })
                #expect(query["acr_values"] == Self.multiFactor)
                #expect(query["claims"]?.contains("essential") == true)

                let callback = try await harness.followToProvider(location.absoluteString)
                let done = try await client.execute(uri: callback, method: .get, headers: jar.header)
                #expect(done.status == .seeOther)
                #expect(done.headers[.location] == "/vault?tab=2", "back to the route")
                jar.update(from: done)
                #expect(jar.values[WebSignInConfiguration.sessionCookieName] != oldSession, "a new session id")

                let vault = try await client.execute(uri: "/vault", method: .get, headers: jar.header)
                #expect(vault.status == .ok)
                #expect(String(buffer: vault.body) == "vault for user-1234 at \(Self.multiFactor)")
                #expect(String(buffer: try await client.execute(uri: "/acr", method: .get, headers: jar.header).body) == Self.multiFactor)
                let old = try await client.execute(uri: "/acr", method: .get, headers: [.cookie: "\(WebSignInConfiguration.sessionCookieName)=\(oldSession)"])
                #expect(String(buffer: old.body) == "nobody", "the weaker session ended")
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1, "the weaker session's credential is gone")
            }
        }

        @Test("A route's max_age: an authentication older than it sends the browser through a step-up with max_age")
        func stepUpToRecentAuthentication() async throws {
            let clock = ManualClock()
            let harness = try WebSignInHarness(clock: clock, stepUp: true)
            try await Self.application(harness).test(.router) { client in
                var jar = CookieJar()
                try await WebSignInTests.signIn(client, harness, jar: &jar)
                #expect(try await client.execute(uri: "/recent", method: .get, headers: jar.header).status == .ok)
                clock.advance(by: 600)
                let challenged = try await client.execute(uri: "/recent", method: .get, headers: jar.header)
                #expect(challenged.status == .found)
                jar.update(from: challenged)
                let location = try require(challenged.headers[.location])
                #expect(location.contains("max_age=300"))
                let done = try await client.execute(uri: try await harness.followToProvider(location), method: .get, headers: jar.header)
                #expect(done.headers[.location] == "/recent")
                jar.update(from: done)
                #expect(try await client.execute(uri: "/recent", method: .get, headers: jar.header).status == .ok)
            }
        }

        @Test("Hostile: a step-up whose ID token's acr falls short is 400 step_up_not_satisfied; the old session stays, nothing stored")
        func acrNotMet() async throws {
            let harness = try WebSignInHarness(clock: ManualClock(), stepUp: true)
            try await Self.application(harness).test(.router) { client in
                var jar = CookieJar()
                try await WebSignInTests.signIn(client, harness, jar: &jar)
                let keys = try await harness.store.tokenStorage.storedKeys()
                await harness.idp.update { $0.idTokenClaimOverrides["acr"] = "urn:example:loa:1" }
                let challenged = try await client.execute(uri: "/vault", method: .get, headers: jar.header)
                jar.update(from: challenged)
                let done = try await client.execute(uri: try await harness.followToProvider(try require(challenged.headers[.location])), method: .get, headers: jar.header)
                #expect(done.status == .badRequest)
                #expect(String(buffer: done.body).contains("(step_up_not_satisfied)"))
                jar.update(from: done)
                #expect(Set(try await harness.store.tokenStorage.storedKeys()) == Set(keys))
                let acr = String(buffer: try await client.execute(uri: "/acr", method: .get, headers: jar.header).body)
                #expect(acr == TestIdentityProvider.StepUpSettings.passwordClass, "still signed in, as before")
                #expect(try await client.execute(uri: "/vault", method: .get, headers: jar.header).status == .found, "still short")
            }
        }

        @Test("A POST, an embedded request or no session is not redirected: 403 step_up_required, 401 not_signed_in")
        func notRedirected() async throws {
            let harness = try WebSignInHarness(clock: ManualClock(), stepUp: true)
            try await Self.application(harness).test(.router) { client in
                let anonymous = try await client.execute(uri: "/vault", method: .get)
                #expect(anonymous.status == .unauthorized)
                #expect(String(buffer: anonymous.body).contains("(not_signed_in)"))
                var jar = CookieJar()
                try await WebSignInTests.signIn(client, harness, jar: &jar)
                let posted = try await client.execute(uri: "/guarded-post", method: .post, headers: jar.header)
                #expect(posted.status == .forbidden)
                #expect(String(buffer: posted.body).contains("(step_up_required)"))
                var embedded = jar.header
                embedded[HTTPField.Name("Sec-Fetch-Dest")!] = "iframe"
                #expect(try await client.execute(uri: "/vault", method: .get, headers: embedded).status == .forbidden)
                #expect(await harness.idp.requestCounts["/authorize"] == 1, "no step-up sign-in started")
            }
        }
    }
#endif
