#if HummingbirdSignIn
    public import AuthWebSignIn
    public import Hummingbird

    /// A request context that carries the signed-in user, set by ``WebSignInMiddleware``.
    public protocol WebSignInRequestContext: RequestContext {
        /// The browser's signed-in user, or `nil`.
        var signedInUser: SignedInUser? { get set }
    }

    /// A ready-made ``WebSignInRequestContext``.
    public struct BasicWebSignInRequestContext: WebSignInRequestContext {
        /// Hummingbird's own storage.
        public var coreContext: CoreRequestContextStorage
        /// The browser's signed-in user, or `nil`.
        public var signedInUser: SignedInUser?

        /// Creates a context for a new request.
        public init(source: Source) {
            self.coreContext = .init(source: source)
        }
    }
#endif
