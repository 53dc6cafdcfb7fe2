import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `GET /auth/{provider}/signed-out`: the provider's redirect back after an RP-initiated logout
    /// (``WebSignInConfiguration/postLogoutURL(for:)``, OpenID Connect RP-Initiated Logout 1.0 §3). Its `state` must
    /// be the one this browser's sign-out cookie holds, for this provider, unexpired and not used before; then the
    /// cookie is cleared and the browser goes to ``WebSignInConfiguration/afterSignOut`` (`303`).
    ///
    /// Anything else — another browser's state, a made-up one, two of them, a replay of a return already taken, no
    /// sign-out in progress — is `400 sign_out_state_mismatch`, and nothing changes: the cookie stays for the real return, and no
    /// session is touched (the sign-out itself ended the session before the browser left).
    ///
    /// - Throws: `storage_unavailable` when the session store cannot record the state's use.
    public func signedOut(provider name: String, request: WebRequest) async throws -> WebResponse {
        guard request.method == .get else { return Self.methodNotAllowed(allow: "GET") }
        guard clients[name] != nil || nativeClients[name] != nil else { return Self.unknownProvider(name) }
        // Exactly one `state`: a second one could make this check and a later reader see different values.
        let states = FormEncoding.decode(request.query ?? "").filter { $0.0 == "state" }.map(\.1)
        let state = states.count == 1 ? states[0] : ""
        let now = clock.now()
        guard !state.isEmpty, let sealed = request.cookie(WebSignInConfiguration.signOutCookieName), let pending = signOutCookie.open(sealed),
            pending.providerName == name, pending.expiresAt > now, Self.constantTimeEqual(pending.state, state)
        else { return Self.signOutRefused() }
        // Once: a copy of the cookie and the URL taken before the return is refused too, on every instance.
        let firstUse = try await storeOutage.guarding(now: now, clock: clock) {
            try await store.markUsed(digest: Self.digest("sign-out " + state), until: pending.expiresAt, now: now)
        }
        guard firstUse else { return Self.signOutRefused() }
        var response = WebResponse.redirect(to: configuration.afterSignOut, status: .seeOther)
        response.setCookie(.removal(WebSignInConfiguration.signOutCookieName, sameSite: .lax))
        return response
    }

    /// The refusal of a redirect back whose `state` is not this browser's sign-out's.
    static func signOutRefused() -> WebResponse {
        WebResponse.page(
            status: .badRequest, title: "Sign-out return refused",
            message:
                "This return does not belong to a sign-out this browser started (its state is another's, already used, or expired); nothing was changed. (\(AuthError.Code.signOutStateMismatch.rawValue))"
        )
    }
}
