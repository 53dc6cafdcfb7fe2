#if canImport(Security)
    import AuthCore
    public import Foundation
    public import Security

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A TLS client identity for mutual TLS (RFC 8705) through URLSession: the client's certificate and private key as
    /// a Keychain identity, and the intermediate certificates that lead to the authority the provider trusts.
    ///
    /// Give it to ``URLSessionTransport/init(configuration:clientIdentity:)``; the transport presents it whenever a
    /// server asks for a client certificate — the token, pushed authorization, revocation and introspection requests
    /// of a `tls_client_auth` client and its certificate-bound tokens at user info and the app's resources. Any server
    /// that asks gets the certificate (not the key), so give that transport only to the provider and the resources
    /// that bind tokens to it. The key stays in the Security framework; the description names the certificate's
    /// subject only.
    ///
    /// Apple platforms only: on Linux, FoundationNetworking cannot present a client certificate, and servers use
    /// AuthAsyncHTTPClient's `AsyncHTTPClientTransport(mutualTLS:)`.
    public struct URLSessionClientIdentity: @unchecked Sendable, CustomStringConvertible {
        // @unchecked: SecIdentity and SecCertificate are immutable Core Foundation objects, which Security lets any
        // thread use; the struct never changes them after init.

        /// The identity: the client certificate with its private key.
        public let identity: SecIdentity
        /// The certificates between the client's certificate and the authority, leaf excluded, as URLSession expects
        /// them in a credential.
        public let intermediates: [SecCertificate]

        /// Wraps an identity the app already holds — read from its Keychain (`kSecClassIdentity`) or installed by a
        /// configuration profile — with the intermediate certificates to send beside it.
        public init(identity: SecIdentity, intermediates: [SecCertificate] = []) {
            self.identity = identity
            self.intermediates = intermediates
        }

        /// Imports the identity from a PKCS #12 archive (a `.p12` or `.pfx` file's bytes) and its passphrase: the first
        /// identity in it, and the rest of its certificate chain as the intermediates.
        ///
        /// Where the system allows it (iOS 18, macOS 15 and later), the import stays in memory; before that, macOS
        /// also adds the identity to the user's login keychain, as `SecPKCS12Import` always did there.
        ///
        /// - Throws: `invalid_configuration` saying whether the passphrase was wrong, the data is not PKCS #12, or it
        ///   holds no identity — never the passphrase or the key.
        public init(pkcs12 data: Data, passphrase: String) throws {
            var options: [String: Any] = [kSecImportExportPassphrase as String: passphrase]
            if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, *) { options[kSecImportToMemoryOnly as String] = true }
            var items: CFArray?
            let status = SecPKCS12Import(data as CFData, options as CFDictionary, &items)
            switch status {
            case errSecSuccess: break
            // macOS reports a wrong passphrase as a failed MAC check; iOS as an authentication failure.
            case errSecAuthFailed, errSecPkcs12VerifyFailure:
                throw AuthError(.invalidConfiguration, "The PKCS #12 client identity cannot be opened with the passphrase given.")
            case errSecDecode:
                throw AuthError(.invalidConfiguration, "The client identity data is not a PKCS #12 archive.")
            default:
                throw AuthError(.invalidConfiguration, "The PKCS #12 client identity cannot be imported (OSStatus \(status)).")
            }
            let entries = (items as? [[String: Any]]) ?? []
            // Core Foundation values come back as `Any`: their type is checked by id before the cast.
            guard let first = entries.first, let value = first[kSecImportItemIdentity as String],
                CFGetTypeID(value as CFTypeRef) == SecIdentityGetTypeID()
            else {
                throw AuthError(.invalidConfiguration, "The PKCS #12 archive holds no identity (a certificate with its private key).")
            }
            let identity = value as! SecIdentity
            let chain = ((first[kSecImportItemCertChain as String] as? [Any]) ?? []).filter {
                CFGetTypeID($0 as CFTypeRef) == SecCertificateGetTypeID()
            }.map { $0 as! SecCertificate }
            let leaf = Self.certificateData(of: identity)
            self.init(identity: identity, intermediates: chain.filter { SecCertificateCopyData($0) as Data != leaf })
        }

        /// The certificate's subject, as Security summarises it; never the key.
        public var description: String {
            var certificate: SecCertificate?
            guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate,
                let subject = SecCertificateCopySubjectSummary(certificate)
            else { return "URLSessionClientIdentity(subject unknown)" }
            return "URLSessionClientIdentity(subject: \(subject as String), intermediates: \(intermediates.count))"
        }

        /// The credential URLSession presents for a client certificate challenge, `.forSession`: kept in the session
        /// configuration's credential storage only while the process runs (the transport's default ephemeral
        /// configuration's storage is its own, in memory), never written to disk.
        var credential: URLCredential {
            URLCredential(identity: identity, certificates: intermediates, persistence: .forSession)
        }

        private static func certificateData(of identity: SecIdentity) -> Data? {
            var certificate: SecCertificate?
            guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else { return nil }
            return SecCertificateCopyData(certificate) as Data
        }
    }
#endif
