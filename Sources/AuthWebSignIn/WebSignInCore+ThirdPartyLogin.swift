import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `GET` or `POST /auth/{provider}/initiate-login` (OpenID Connect Core 1.0 §4, third-party-initiated login):
    /// the provider, or a page it trusts, asks the app to start a sign-in with it. Register
    /// ``WebSignInConfiguration/initiateLoginURL(for:)`` as `initiate_login_uri`.
    ///
    /// Parameters (query, or the form body of a `POST`): `iss`, required, must be the provider's issuer exactly;
    /// `login_hint`, optional, is passed on; `target_link_uri`, optional, is where the browser goes once signed in —
    /// only an absolute URL on the app's own origin (``WebSignInConfiguration/publicURL``) is accepted (§4: the RP
    /// must not become an open redirector), and the browser is sent to its path and query on that origin. Then a
    /// normal sign-in starts, as ``login(provider:request:)`` starts one.
    ///
    /// Refusals, with nothing started and the browser's cookies untouched: another `iss` is
    /// `400 initiate_login_issuer_mismatch`; a `target_link_uri` off the app's origin (another host, scheme or port,
    /// a protocol-relative `//host` path, not a URL) is `400 target_link_off_site`; a request from an embedded
    /// resource is `403 cross_site_request`.
    public func initiateLogin(provider name: String, request: WebRequest) async -> WebResponse {
        guard request.method == .get || request.method == .post else { return Self.methodNotAllowed(allow: "GET, POST") }
        guard let client = clients[name] else { return Self.unknownProvider(name) }
        if let destination = request.headerFields[HTTPField.Name("Sec-Fetch-Dest")!]?.lowercased(), destination != "document" {
            return Self.failure(
                AuthError(.crossSiteRequest, "A sign-in starts only from a page the browser navigates to, not from an embedded resource."), status: .forbidden
            )
        }
        let pairs = request.method == .post ? (request.formPairs ?? []) : FormEncoding.decode(request.query ?? "")
        func value(_ key: String) -> String? { pairs.first { $0.0 == key }?.1.nilIfEmpty }
        let metadata: ProviderMetadata
        do {
            metadata = try await client.metadata()
        } catch {
            return Self.failure(AuthError(.discoveryFailed, "The provider's metadata could not be read."), status: .badGateway)
        }
        guard let issuer = value("iss"), issuer == metadata.issuer else {
            return Self.failure(
                AuthError(.initiateLoginIssuerMismatch, "The login was initiated for another issuer than this provider's; nothing was started."), status: .badRequest)
        }
        var returnTo: String?
        if let target = value("target_link_uri") {
            guard let path = sameOriginPath(target) else {
                return Self.failure(
                    AuthError(.targetLinkOffSite, "The target_link_uri is not on this app's origin; nothing was started (no open redirect)."), status: .badRequest)
            }
            returnTo = path
        }
        return await beginSignIn(name: name, client: client, request: request, loginHint: value("login_hint"), returnTo: returnTo)
    }

    /// The path and query of `target` when it is an absolute URL on the app's own origin (scheme, host and port of
    /// ``WebSignInConfiguration/publicURL``, no user info), as a path the browser cannot read as another host's.
    func sameOriginPath(_ target: String) -> String? {
        guard target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }),
            let components = URLComponents(string: target), components.user == nil, components.password == nil,
            let url = components.url, let origin = Self.origin(of: url), let own = Self.origin(of: configuration.publicURL),
            origin == own, components.scheme?.lowercased() == configuration.publicURL.scheme?.lowercased()
        else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return nil }
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
