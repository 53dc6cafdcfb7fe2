// Built on Apple platforms (SwiftUI); type-checked on Linux against Shims/ by Scripts/ci/apple-typecheck.sh.
// A button that signs in with a provider chosen by name.
#if canImport(SwiftUI)
    public import AuthCore
    public import SwiftUI

    /// A SwiftUI button that signs in with `client` through `userAgent` and reports the result.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    public struct SignInButton: View {
        private let title: String
        private let client: AuthClient
        private let userAgent: any UserAgent
        private let options: SignInOptions
        private let completion: @MainActor (Result<Session, AuthError>) -> Void
        @State private var inProgress = false

        /// Creates a button, by default titled "Sign in with <provider>".
        public init(
            _ title: String? = nil,
            client: AuthClient,
            userAgent: any UserAgent,
            options: SignInOptions = SignInOptions(),
            completion: @escaping @MainActor (Result<Session, AuthError>) -> Void
        ) {
            self.title = title ?? "Sign in with \(type(of: client.provider).displayName)"
            self.client = client
            self.userAgent = userAgent
            self.options = options
            self.completion = completion
        }

        /// The button.
        public var body: some View {
            Button(title) {
                inProgress = true
                Task { @MainActor in
                    defer { inProgress = false }
                    do {
                        completion(.success(try await client.signIn(with: userAgent, options: options)))
                    } catch let error as AuthError {
                        completion(.failure(error))
                    } catch {
                        completion(.failure(AuthError(.authorizationFailed, "Sign-in failed.", underlying: error)))
                    }
                }
            }
            .disabled(inProgress)
        }
    }
#endif
