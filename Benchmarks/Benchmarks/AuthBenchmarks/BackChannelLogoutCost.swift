import AuthCore
import AuthHummingbird
import AuthOIDC
import AuthTesting
import Benchmark
import Foundation

/// One back-channel logout's cost with `others` other users' sessions in the store (in memory): the logout names a
/// user with one session, which it ends; the core finds it by index, so the figure must not grow with `others`.
func registerBackChannelLogoutCost() {
    for others in [0, 2_000] {
        Benchmark(
            "Back-channel logout: one user's session ended, \(others) other sessions stored (in-memory store)",
            configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(2), maxIterations: 2_000)
        ) { benchmark in
            let store = InMemoryWebSessionStore()
            let front = try WebSignInFront(store: store)
            let now = Date()
            for index in 0..<others {
                let key = StorageKey(
                    providerID: "oidc", issuer: TestIdentityProvider.defaultIssuer.absoluteString, clientID: TestIdentityProvider.defaultClientID, account: "web-other-\(index)")
                try await store.tokenStorage.store(
                    Credential(providerID: "oidc", issuer: key.issuer, clientID: key.clientID, subject: "other-\(index)", accessToken: Secret("at"), updatedAt: now), for: key
                )
                await store.saveSession(
                    WebSessionRecord(
                        providerName: "oidc", account: key, subject: "other-\(index)", displayName: "Other", csrfToken: "c", createdAt: now,
                        expiresAt: now.addingTimeInterval(86_400)),
                    key: "other-\(index)"
                )
            }
            // The logout tokens are signed before the measurement: the figure is the app's part only.
            var requests: [WebRequest] = []
            for _ in benchmark.scaledIterations {
                let token = await front.idp.logoutToken(subject: "user-1")
                requests.append(
                    WebRequest(
                        method: .post, path: "/auth/oidc/backchannel-logout", headerFields: [.contentType: "application/x-www-form-urlencoded"],
                        body: Data("logout_token=\(token)".utf8)
                    )
                )
            }
            let key = StorageKey(
                providerID: "oidc", issuer: TestIdentityProvider.defaultIssuer.absoluteString, clientID: TestIdentityProvider.defaultClientID, account: "web-user-1")
            let core = front.webSignIn.core
            benchmark.startMeasurement()
            for request in requests {
                // The user's one session, put back before each logout ends it (not measured apart: a dictionary write).
                await store.saveSession(
                    WebSessionRecord(
                        providerName: "oidc", account: key, subject: "user-1", displayName: "User", csrfToken: "c", createdAt: now, expiresAt: now.addingTimeInterval(86_400)),
                    key: "user-1"
                )
                let response = await core.backChannelLogout(provider: "oidc", request: request)
                guard response.status == .ok else { throw BenchmarkFailure("the logout answered \(response.status)") }
            }
            benchmark.stopMeasurement()
        }
    }
}
