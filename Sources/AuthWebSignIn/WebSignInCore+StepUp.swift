import AuthCore
import Foundation
import HTTPTypes

// Step-up for routes (RFC 9470 §4 on the server side): a route that requires an `acr` or a recent authentication sends
// a browser whose session falls short through a new sign-in with `acr_values` and `max_age`, and back to the route.
extension WebSignInCore {
    /// Checks `request`'s session against a route's `requirement`: `nil` when it meets it (serve the route);
    /// otherwise the response to send instead.
    ///
    /// - A browser without a session: `401` (`not_signed_in`).
    /// - A session that falls short, on a top-level `GET` navigation: `302` to its provider's step-up sign-in —
    ///   `acr_values` (essential) and `max_age` from `requirement`, the same user required — and once the callback
    ///   completes it, a new session recording the stronger authentication (`WebSessionRecord/authenticationClass`,
    ///   `WebSessionRecord/authenticatedAt`), the old one ended, and the browser back at this route's path and query.
    ///   The sign-in refuses an ID token whose `acr` or `auth_time` falls short (`step_up_not_satisfied`) or that
    ///   names another user (`subject_mismatch`); the old session then stays as it was.
    /// - A session that falls short on any other request (a `POST`, a `fetch`, an embedded resource): `403`
    ///   (`step_up_required`): a browser cannot be sent through a sign-in from there; link the user to a page behind
    ///   the same requirement.
    ///
    /// - Throws: `storage_unavailable` when the session store cannot answer.
    public func requireAuthentication(_ requirement: WebAuthenticationRequirement, request: WebRequest) async throws -> WebResponse? {
        guard let (_, record) = try await sessionRecord(for: request), let client = client(for: record) else {
            return WebResponse.page(status: .unauthorized, title: "Sign in first", message: "This page needs a signed-in user. (\(AuthError.Code.notSignedIn.rawValue))")
        }
        let skew = client.provider.idTokenPolicy.clockSkew
        if requirement.isMet(by: record, now: clock.now(), clockSkew: skew) { return nil }
        let destination = request.headerFields[HTTPField.Name("Sec-Fetch-Dest")!]?.lowercased()
        guard request.method == .get, destination == nil || destination == "document", let webClient = clients[record.providerName],
            webClient.provider.client.clientID == record.account.clientID
        else {
            return WebResponse.page(
                status: .forbidden, title: "Stronger sign-in needed",
                message: "This request needs a stronger or more recent sign-in; open the page again to sign in. (\(AuthError.Code.stepUpRequired.rawValue))"
            )
        }
        // Back to this route: a path on this origin the browser cannot read as another host's (`//host`, `/\host`).
        let route = request.path + (request.query.map { "?" + $0 } ?? "")
        let onOrigin = route.hasPrefix("/") && !route.hasPrefix("//") && route.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }
        let returnTo = onOrigin ? route : nil
        return await beginSignIn(
            name: record.providerName, client: webClient, request: request, returnTo: returnTo,
            stepUp: (StepUpRequirement(acrValues: requirement.acrValues, maxAge: requirement.maxAge), record.subject)
        )
    }
}
