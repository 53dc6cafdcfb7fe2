import AuthCore
import AuthSignInWithApple
import Testing

@Suite("Sign in with Apple")
struct SignInWithAppleProviderTests {
    @Test("'apple' is Sign in with Apple's id")
    func identity() {
        #expect(SignInWithAppleProvider.id == "apple")
    }
}
