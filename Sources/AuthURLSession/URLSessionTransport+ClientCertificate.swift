#if canImport(Security)
    #if canImport(FoundationNetworking)
        public import FoundationNetworking
    #else
        public import Foundation
    #endif

    extension URLSessionTransport {
        /// Creates a transport whose session presents `clientIdentity` whenever a server asks for a client
        /// certificate (RFC 8705 mutual TLS): what a `tls_client_auth` or `self_signed_tls_client_auth` client needs
        /// for its token, pushed authorization, revocation and introspection requests, and for its
        /// certificate-bound tokens at user info and the app's resources. Give the same transport to the
        /// `AuthClient` and to the calls that use its tokens.
        ///
        /// Only a client certificate challenge is answered with the identity; the server's trust is evaluated by the
        /// system as usual, and no other challenge gets a credential. Every server that asks gets the certificate,
        /// so use this transport for the provider and the resources that bind tokens to it, and another elsewhere.
        ///
        /// - Parameters:
        ///   - configuration: the session configuration; `.ephemeral` with a 30 s request timeout by default.
        ///   - clientIdentity: the certificate and key to present, for example
        ///     ``URLSessionClientIdentity/init(pkcs12:passphrase:)``.
        public convenience init(configuration: URLSessionConfiguration? = nil, clientIdentity: URLSessionClientIdentity) {
            self.init(configuration: configuration, clientCredential: { clientIdentity.credential })
        }
    }
#endif
