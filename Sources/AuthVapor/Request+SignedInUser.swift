#if VaporSignIn
    public import AuthWebSignIn
    public import Vapor

    extension Request {
        /// The browser's signed-in user, set by `VaporWebSignInMiddleware` from the session cookie; `nil` when signed
        /// out, or on a route the middleware is not in front of.
        public var signedInUser: SignedInUser? {
            get { storage[SignedInUserKey.self] }
            set { storage[SignedInUserKey.self] = newValue }
        }
    }

    /// Where a request keeps its signed-in user.
    private struct SignedInUserKey: StorageKey {
        typealias Value = SignedInUser
    }
#endif
