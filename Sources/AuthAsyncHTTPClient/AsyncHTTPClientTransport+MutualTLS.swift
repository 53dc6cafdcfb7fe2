#if AsyncHTTPClientTransport
    public import AsyncHTTPClient
    import AuthCore
    import Foundation
    public import NIOCore
    import NIOSSL

    extension AsyncHTTPClientTransport {
        /// Creates and owns a client that presents `identity` on every connection (RFC 8705 mutual TLS): the token,
        /// pushed authorization, revocation and introspection requests of a `tls_client_auth` client, and its
        /// certificate-bound tokens at user info and the app's resources. Call ``shutdown()`` when done.
        ///
        /// - Throws: `invalid_configuration` naming the file that cannot be read as PEM (never its content).
        public convenience init(mutualTLS identity: MutualTLSIdentity) throws {
            self.init(ownedClient: try Self.makeClient(mutualTLS: identity))
        }

        /// A client configured as ``makeClient(eventLoopGroup:)`` makes one, which also presents `identity` as its TLS
        /// client certificate and, when the identity names trust roots, trusts only those for the server.
        ///
        /// - Throws: `invalid_configuration` naming the file that cannot be read as PEM (never its content).
        public static func makeClient(
            eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup, mutualTLS identity: MutualTLSIdentity
        ) throws -> HTTPClient {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateChain = try read(identity.certificateChainFile, "certificate chain") {
                try NIOSSLCertificate.fromPEMFile($0).map { .certificate($0) }
            }
            tls.privateKey = try read(identity.privateKeyFile, "private key") { .privateKey(try NIOSSLPrivateKey(file: $0, format: .pem)) }
            if let roots = identity.trustRootsFile {
                tls.trustRoots = .certificates(try read(roots, "trust roots") { try NIOSSLCertificate.fromPEMFile($0) })
            }
            guard tls.certificateChain.isEmpty == false else {
                throw AuthError(.invalidConfiguration, "The TLS client certificate file \(identity.certificateChainFile.path) holds no certificate.")
            }
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            configuration.decompression = .enabled(limit: .ratio(100))
            configuration.tlsConfiguration = tls
            return HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        }

        /// `parse(path)`, its failure reported with the file and what it should hold; NIOSSL's error is left out, as
        /// it could quote the file.
        private static func read<Value>(_ file: URL, _ what: String, _ parse: (String) throws -> Value) throws -> Value {
            guard FileManager.default.isReadableFile(atPath: file.path) else {
                throw AuthError(.invalidConfiguration, "The TLS client \(what) file \(file.path) cannot be read.")
            }
            do {
                return try parse(file.path)
            } catch {
                throw AuthError(.invalidConfiguration, "The TLS client \(what) file \(file.path) is not PEM that holds one.")
            }
        }
    }
#endif
