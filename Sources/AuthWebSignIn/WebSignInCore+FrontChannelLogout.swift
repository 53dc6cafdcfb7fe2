import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `GET /auth/{provider}/frontchannel-logout` (OpenID Connect Front-Channel Logout 1.0 §2): the provider, in an
    /// `iframe` of its logout page, says the user's session with it ended. Register
    /// ``WebSignInConfiguration/frontChannelLogoutURL(for:)`` as `frontchannel_logout_uri` with
    /// `frontchannel_logout_session_required: true`: the request must carry `iss` (the provider's issuer, compared
    /// exactly) and `sid`, and the web sessions started with an ID token of that `sid` end with their credentials, on
    /// every instance (found by index, as a back-channel logout's). No cookie is needed: a browser does not send a
    /// `SameSite=Lax` cookie into a cross-site `iframe`.
    ///
    /// The answer is the page §2 describes: `200`, never cached (`Cache-Control: no-cache, no-store`,
    /// `Pragma: no-cache`) and framable by the provider only (`frame-ancestors` its issuer's and end-session endpoint's
    /// origins). A request without `iss` and `sid` is `400 front_channel_session_required`, one with another `iss`
    /// `400 front_channel_issuer_mismatch`; neither ends anything. A `sid` no session has ends nothing and is `200`
    /// (the provider cannot know which of its relying parties hold one).
    ///
    /// - Throws: `storage_unavailable` when the session store cannot answer.
    public func frontChannelLogout(provider name: String, request: WebRequest) async throws -> WebResponse {
        guard request.method == .get else { return Self.methodNotAllowed(allow: "GET") }
        guard let client = clients[name] else { return Self.unknownProvider(name) }
        let query = FormEncoding.decode(request.query ?? "")
        guard let issuer = query.first(where: { $0.0 == "iss" })?.1, !issuer.isEmpty,
            let sid = query.first(where: { $0.0 == "sid" })?.1, !sid.isEmpty
        else {
            return Self.logoutRefused(AuthError(.frontChannelSessionRequired, "A front-channel logout must carry the provider's iss and the session's sid; nothing was ended."))
        }
        let metadata: ProviderMetadata
        do {
            metadata = try await client.metadata()
        } catch {
            return WebResponse.page(status: .badGateway, title: "Sign-out unavailable", message: "The provider's metadata could not be read; nothing was ended.")
        }
        guard issuer == metadata.issuer else {
            return Self.logoutRefused(AuthError(.frontChannelIssuerMismatch, "The front-channel logout names another issuer than this provider's; nothing was ended."))
        }
        let ended = try await store.removeSessions(
            subjectIndex: nil, providerSessionIndex: WebSessionRecord.providerSessionIndex(providerName: name, sessionID: sid))
        for record in ended {
            await sessionCache?.forget(account: record.account)
            try await store.tokenStorage.withExclusiveAccess(to: record.account) { try await store.tokenStorage.removeCredential(for: record.account) }
        }
        let origins = Set([URL(string: metadata.issuer), metadata.endSessionEndpoint].compactMap { $0.flatMap(Self.origin(of:)) })
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed out</title></head>\
            <body><p>Signed out.</p></body></html>
            """
        return WebResponse(
            status: .ok,
            headerFields: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache, no-store", HTTPField.Name("Pragma")!: "no-cache",
                .contentSecurityPolicy: "default-src 'none'; frame-ancestors \(origins.isEmpty ? "'none'" : origins.sorted().joined(separator: " "))"
            ],
            body: Data(html.utf8)
        )
    }

    /// `scheme://host[:port]` of `url`, or `nil` without a scheme or host.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// `400` with `error`'s message and code.
    static func logoutRefused(_ error: AuthError) -> WebResponse {
        WebResponse.page(status: .badRequest, title: "Request refused", message: "\(error.message) (\(error.code.rawValue))")
    }
}
