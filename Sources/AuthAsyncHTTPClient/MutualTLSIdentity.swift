#if AsyncHTTPClientTransport
    public import Foundation

    /// A TLS client identity for mutual TLS (RFC 8705): the PEM files of the client's certificate chain and private key,
    /// and optionally the certificate authorities to trust for the provider's server certificate instead of the
    /// system's. The files are read when a client is made (``AsyncHTTPClientTransport/makeClient(eventLoopGroup:mutualTLS:)``);
    /// the key is never logged or described, only the files' paths.
    public struct MutualTLSIdentity: Sendable, Hashable, CustomStringConvertible {
        /// The PEM file with the client's certificate first, then any intermediates.
        public var certificateChainFile: URL
        /// The PEM file with the client's private key (mode 0600 advised).
        public var privateKeyFile: URL
        /// A PEM file of certificate authorities to trust for the server, when its certificate is not from a system
        /// root (a private CA); `nil` trusts the system's roots.
        public var trustRootsFile: URL?

        /// Creates an identity from its files.
        public init(certificateChainFile: URL, privateKeyFile: URL, trustRootsFile: URL? = nil) {
            self.certificateChainFile = certificateChainFile
            self.privateKeyFile = privateKeyFile
            self.trustRootsFile = trustRootsFile
        }

        /// The files' paths; never their content.
        public var description: String {
            "MutualTLSIdentity(certificate: \(certificateChainFile.path), key: \(privateKeyFile.path)"
                + (trustRootsFile.map { ", trust roots: \($0.path)" } ?? "") + ")"
        }
    }
#endif
