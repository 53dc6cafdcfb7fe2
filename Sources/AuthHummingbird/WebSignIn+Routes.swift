#if HummingbirdSignIn
    import AuthCore
    import AuthWebSignIn
    import Foundation
    public import Hummingbird

    extension WebSignIn {
        /// Adds the sign-in, callback (GET and POST), sign-out, session, back-channel logout and native sign-in routes;
        /// each hands the request to `WebSignInCore` and returns its answer.
        public func addRoutes(to router: some RouterMethods<Context>) {
            let prefix = configuration.pathPrefix
            let core = self.core
            router.get("\(prefix)/{provider}/login") { request, context in
                Response(await core.login(provider: Self.provider(context), request: WebRequest(request, body: nil)))
            }
            router.get("\(prefix)/{provider}/callback") { request, context in
                Response(try await core.callback(provider: Self.provider(context), request: WebRequest(request, body: nil)))
            }
            // `response_mode=form_post` (Sign in with Apple): the answer is a form in the body.
            router.post("\(prefix)/{provider}/callback") { request, context in
                Response(try await core.callback(provider: Self.provider(context), request: try await Self.withBody(request)))
            }
            router.post("\(prefix)/logout") { request, _ in
                Response(try await core.logout(try await Self.withBody(request)))
            }
            router.get("\(prefix)/session") { request, _ in
                Response(try await core.sessionJSON(WebRequest(request, body: nil)))
            }
            router.post("\(prefix)/{provider}/backchannel-logout") { request, context in
                Response(await core.backChannelLogout(provider: Self.provider(context), request: try await Self.withBody(request)))
            }
            // The logout profiles and third-party-initiated login (OpenID Connect RP-Initiated and Front-Channel
            // Logout 1.0, Core §4).
            router.get("\(prefix)/{provider}/signed-out") { request, context in
                Response(try await core.signedOut(provider: Self.provider(context), request: WebRequest(request, body: nil)))
            }
            router.get("\(prefix)/{provider}/frontchannel-logout") { request, context in
                Response(try await core.frontChannelLogout(provider: Self.provider(context), request: WebRequest(request, body: nil)))
            }
            router.get("\(prefix)/{provider}/initiate-login") { request, context in
                Response(await core.initiateLogin(provider: Self.provider(context), request: WebRequest(request, body: nil)))
            }
            router.post("\(prefix)/{provider}/initiate-login") { request, context in
                Response(await core.initiateLogin(provider: Self.provider(context), request: try await Self.withBody(request)))
            }
            // Sign in with Apple's server-to-server notifications (a JSON body).
            router.post("\(prefix)/{provider}/notifications") { request, context in
                Response(await core.appleNotification(provider: Self.provider(context), request: try await Self.withBody(request)))
            }
            router.post("\(prefix)/{provider}/native/nonce") { _, context in
                Response(await core.nativeNonce(provider: Self.provider(context)))
            }
            router.post("\(prefix)/{provider}/native/sign-in") { request, context in
                Response(try await core.nativeSignIn(provider: Self.provider(context), request: try await Self.withBody(request)))
            }
        }

        /// The `{provider}` path segment.
        static func provider(_ context: Context) -> String {
            context.parameters.get("provider") ?? ""
        }

        /// `request` with its body collected, at most `WebSignInCore/maximumFormBodySize` bytes (beyond: 413, unread).
        static func withBody(_ request: Request) async throws -> WebRequest {
            var request = request
            let body = try await request.collectBody(upTo: WebSignInCore.maximumFormBodySize)
            return WebRequest(request, body: Data(buffer: body))
        }
    }
#endif
