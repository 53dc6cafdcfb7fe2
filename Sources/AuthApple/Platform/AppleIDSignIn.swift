// Compiled on Apple platforms (AuthenticationServices), and type-checked on Linux against Shims/ by
// Scripts/ci/apple-typecheck.sh. Everything it decides is AuthCore's: this file only shows Apple's sheet and hands
// its credential to AuthClient.completeNativeSignIn.
#if canImport(AuthenticationServices)
    public import AuthCore
    public import AuthenticationServices
    public import Foundation

    /// Sign in with Apple in a native app: shows the system sheet (`ASAuthorizationController` with an
    /// `ASAuthorizationAppleIDRequest`) and completes the sign-in with what the sheet returns
    /// (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider,
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential).
    ///
    /// The nonce comes from the client (``AuthCore/AuthClient/prepareNativeSignIn()``) and is accepted once; the identity
    /// token is verified in full and the authorization code redeemed — with the client secret, so the client's provider
    /// must be `SignInWithAppleProvider` configured with the bundle id as `client_id` — by
    /// ``AuthCore/AuthClient/completeNativeSignIn(identityToken:authorizationCode:nonce:redirectURI:authorizationResponse:accountName:)``.
    /// The name and email Apple gives on the first authorization only travel as the `user` JSON the web flow posts, so
    /// the provider keeps them the same way; they never decide who signed in.
    @MainActor
    public final class AppleIDSignIn: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
        private let anchor: @MainActor () -> ASPresentationAnchor
        private var controller: ASAuthorizationController?
        private var continuation: CheckedContinuation<Parts, any Error>?

        /// What is kept of the sheet's credential (a non-`Sendable` object): its tokens and the first authorization's name
        /// and email.
        private struct Parts: Sendable {
            let identityToken: String?
            let authorizationCode: String?
            let givenName: String?
            let familyName: String?
            let email: String?
        }

        /// Creates a sign-in that presents from the window `anchor` returns.
        public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Shows Apple's sheet asking for `scopes` and signs the user in with `client`.
        ///
        /// - Throws: `user_cancelled` when the user closes the sheet; `sign_in_in_progress` while another sheet shows;
        ///   `authorization_failed` when Apple returns no usable credential; the errors of `completeNativeSignIn`.
        public func signIn(with client: AuthClient, scopes: [ASAuthorization.Scope] = [.fullName, .email]) async throws -> Session {
            let prepared = try await client.prepareNativeSignIn()
            let credential = try await present(nonce: prepared.nonce, scopes: scopes, providerID: client.providerID)
            guard let token = credential.identityToken, let code = credential.authorizationCode else {
                throw AuthError(.authorizationFailed, "Sign in with Apple returned no identity token or authorization code.", providerID: client.providerID)
            }
            var response: [String: String] = [:]
            if let user = Self.userJSON(givenName: credential.givenName, familyName: credential.familyName, email: credential.email) {
                response["user"] = user
            }
            return try await client.completeNativeSignIn(
                identityToken: Secret(token), authorizationCode: Secret(code), nonce: prepared.nonce, authorizationResponse: response
            )
        }

        private func present(nonce: String, scopes: [ASAuthorization.Scope], providerID: ProviderID) async throws -> Parts {
            guard controller == nil else {
                throw AuthError(.signInInProgress, "A Sign in with Apple sheet is already showing.", providerID: providerID)
            }
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = scopes
            request.nonce = nonce
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            return try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                controller.performRequests()
            }
        }

        /// The window to show the sheet over.
        public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor() }

        /// Hands the Apple ID credential on; another kind of credential is `authorization_failed`.
        public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
            if let credential = authorization.credential as? ASAuthorizationAppleIDCredential {
                finish(
                    .success(
                        Parts(
                            identityToken: credential.identityToken.flatMap { String(data: $0, encoding: .utf8) },
                            authorizationCode: credential.authorizationCode.flatMap { String(data: $0, encoding: .utf8) },
                            givenName: credential.fullName?.givenName, familyName: credential.fullName?.familyName, email: credential.email
                        )))
            } else {
                finish(.failure(AuthError(.authorizationFailed, "Sign in with Apple returned another kind of credential.")))
            }
        }

        /// A closed sheet is `user_cancelled`; any other failure `authorization_failed`.
        public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            if (error as? ASAuthorizationError)?.code == .canceled {
                finish(.failure(AuthError(.userCancelled, "The Sign in with Apple sheet was closed.")))
            } else {
                finish(.failure(AuthError(.authorizationFailed, "Sign in with Apple failed.", underlying: error)))
            }
        }

        private func finish(_ result: Result<Parts, any Error>) {
            controller = nil
            continuation?.resume(with: result)
            continuation = nil
        }

        /// The `user` JSON the web flow posts (`{"name":{"firstName":…,"lastName":…},"email":…}`) from the native
        /// credential's parts; `nil` when Apple gave none (every authorization after the first).
        static func userJSON(givenName: String?, familyName: String?, email: String?) -> String? {
            var object: [String: Any] = [:]
            var name: [String: String] = [:]
            if let givenName, !givenName.isEmpty { name["firstName"] = givenName }
            if let familyName, !familyName.isEmpty { name["lastName"] = familyName }
            if !name.isEmpty { object["name"] = name }
            if let email, !email.isEmpty { object["email"] = email }
            guard !object.isEmpty, let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
            return String(data: data, encoding: .utf8)
        }
    }
#endif
