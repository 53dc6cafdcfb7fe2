#if WebSignInCore
    import AuthCore
    import Foundation
    import HTTPTypes

    extension WebSignInCore {
        /// `POST /auth/{provider}/native/nonce`: a nonce for a sign-in the app performs with the platform's own UI
        /// (Sign in with Apple's `ASAuthorizationAppleIDRequest.nonce`), as JSON `{"nonce": …, "expires_at": …}`.
        ///
        /// The engine remembers it (`AuthClient/prepareNativeSignIn()`) until it expires and accepts it once: the
        /// native sign-in must reach the instance that issued it (with several instances, route these two requests to
        /// the same one). Issuing writes nothing to the store.
        public func nativeNonce(provider name: String) async -> WebResponse {
            guard let client = nativeClients[name] else {
                return Self.nativeError(status: .notFound, AuthError(.unknownProvider, "There is no native sign-in for '\(name)' here."))
            }
            do {
                let request = try await client.prepareNativeSignIn()
                return WebResponse.json(["nonce": .string(request.nonce), "expires_at": .number(request.expiresAt.timeIntervalSince1970.rounded(.down))])
            } catch let error as AuthError {
                return Self.nativeError(status: .badGateway, error)
            } catch {
                return Self.nativeError(status: .badGateway, AuthError(.invalidResponse, "The nonce could not be made."))
            }
        }

        /// `POST /auth/{provider}/native/sign-in`: the app's natively obtained credential as a form (`id_token`, `code`,
        /// `nonce` from ``nativeNonce(provider:)``, and Apple's first-sign-in `user` when it came), verified in full by
        /// `AuthClient/completeNativeSignIn(identityToken:authorizationCode:nonce:redirectURI:authorizationResponse:accountName:)`
        /// — the nonce issued here and unused, the ID token's signature, issuer, audience (the app's client id), expiry
        /// and nonce, the code redeemed for the same user — then a browser session as a web sign-in starts one: the
        /// session cookie, and JSON `{"signed_in": true, "provider", "subject", "name", "csrf_token"}`.
        ///
        /// Refusals are JSON `{"error": <code>, "error_description": …}` with 400 (403 for a provider's refusal), and
        /// store nothing: `missing_nonce`, `nonce_replayed`, `invalid_audience`, `invalid_signature`, `nonce_mismatch`,
        /// `invalid_native_sign_in` (no ID token or code), ….
        ///
        /// - Throws: `storage_unavailable` when the session store cannot answer.
        public func nativeSignIn(provider name: String, request: WebRequest) async throws -> WebResponse {
            guard let client = nativeClients[name] else {
                return Self.nativeError(status: .notFound, AuthError(.unknownProvider, "There is no native sign-in for '\(name)' here."))
            }
            guard let form = request.formPairs else {
                return Self.nativeError(status: .badRequest, AuthError(.invalidNativeSignIn, "The request is not an application/x-www-form-urlencoded form."))
            }
            let fields = Dictionary(form, uniquingKeysWith: { first, _ in first })
            guard let idToken = fields["id_token"], !idToken.isEmpty, let code = fields["code"], !code.isEmpty else {
                return Self.nativeError(status: .badRequest, AuthError(.invalidNativeSignIn, "The request needs the platform's id_token and code."))
            }
            let session: Session
            do {
                session = try await client.completeNativeSignIn(
                    identityToken: Secret(idToken), authorizationCode: Secret(code), nonce: fields["nonce"] ?? "",
                    authorizationResponse: fields["user"].map { ["user": $0] } ?? [:],
                    // Each browser session keeps its own credential, as for web sign-ins.
                    accountName: "web-" + SecureRandom.token(byteCount: 16)
                )
            } catch let error as AuthError where error.code == .storageUnavailable {
                throw error
            } catch let error as AuthError {
                return Self.nativeError(status: error.code == .accessDenied || error.code == .authorizationFailed ? .forbidden : .badRequest, error)
            }
            let (cookie, record) = try await startSession(name: name, client: client, session: session, replacing: request)
            var response = WebResponse.json([
                "signed_in": true, "provider": .string(record.providerName), "subject": .string(record.subject),
                "name": .string(record.displayName), "csrf_token": .string(record.csrfToken)
            ])
            response.setCookie(cookie)
            return response
        }

        /// `{"error": <code>, "error_description": <message>}` with `status`, never cached.
        static func nativeError(status: HTTPResponse.Status, _ error: AuthError) -> WebResponse {
            WebResponse.json(["error": .string(error.code.rawValue), "error_description": .string(error.message)], status: status)
        }
    }
#endif
