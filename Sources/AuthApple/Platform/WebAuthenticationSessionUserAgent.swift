// Compiled on Apple platforms only (AuthenticationServices). The callback matching rules are the neutral
// CallbackMatcher, tested on Linux.
#if canImport(AuthenticationServices)
public import AuthCore
public import AuthenticationServices
public import Foundation

/// The system web session (`ASWebAuthenticationSession`) as a `UserAgent`: custom-scheme or claimed `https`
/// callbacks, ephemeral sessions on request, one session at a time, and user cancellation as `user_cancelled`.
@MainActor
public final class WebAuthenticationSessionUserAgent: NSObject, UserAgent, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor () -> ASPresentationAnchor
    private var current: ASWebAuthenticationSession?

    /// Creates an agent that presents from the window `anchor` returns.
    public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    /// Shows `request` and returns the callback URL.
    public nonisolated func authorize(_ request: AuthorizationRequest) async throws -> URL {
        try await present(request)
    }

    private func present(_ request: AuthorizationRequest) async throws -> URL {
        guard current == nil else {
            throw AuthError(.signInInProgress, "A web sign-in is already showing.", providerID: request.providerID)
        }
        let matcher = CallbackMatcher(redirectURI: request.redirectURI)
        return try await withCheckedThrowingContinuation { continuation in
            let completion: ASWebAuthenticationSession.CompletionHandler = { [weak self] url, error in
                MainActor.assumeIsolated { self?.current = nil }
                if let url, matcher.matches(url) {
                    continuation.resume(returning: url)
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    continuation.resume(throwing: AuthError(.userCancelled, "The user closed the sign-in page.", providerID: request.providerID))
                } else {
                    continuation.resume(throwing: AuthError(.authorizationFailed, "The web sign-in failed.", providerID: request.providerID, underlying: error))
                }
            }
            let session: ASWebAuthenticationSession
            switch matcher {
            case .https(let host, let path):
                if #available(iOS 17.4, macOS 14.4, *) {
                    session = ASWebAuthenticationSession(url: request.url, callback: .https(host: host, path: path), completionHandler: completion)
                } else {
                    session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: nil, completionHandler: completion)
                }
            case .customScheme(let scheme):
                session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: scheme, completionHandler: completion)
            }
            session.prefersEphemeralWebBrowserSession = request.prefersEphemeralSession
            session.presentationContextProvider = self
            current = session
            if !session.start() {
                current = nil
                continuation.resume(throwing: AuthError(.authorizationFailed, "The web sign-in could not start.", providerID: request.providerID))
            }
        }
    }

    /// The window to present from.
    public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
