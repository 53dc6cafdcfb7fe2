// Runs one hot path a given number of times, for Scripts/bench/instruction-counts.sh to count its instructions under
// callgrind. Wall-clock benchmarks on a shared 2-core VM move by tens of percent between runs; an instruction count
// moves by a fraction of a percent, so it is what a regression check of the ID token path compares.
//
//     instruction-counts <path> <iterations>
import AuthProviders
import AuthEmulators
import AuthTesting
import BenchmarkFixtures
import Foundation
import _AuthHarness

let paths = ["id-token-rs256", "raw-rs256", "id-token-es256", "raw-es256", "redirect", "authorization-request", "full-sign-in", "registry"]
let arguments = CommandLine.arguments
guard arguments.count == 3, paths.contains(arguments[1]), let iterations = Int(arguments[2]), iterations >= 0 else {
    FileHandle.standardError.write(Data("usage: instruction-counts <\(paths.joined(separator: "|"))> <iterations>\n".utf8))
    exit(64)
}

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

// Scripts/bench/instruction-counts.sh counts only the synchronous paths: valgrind 3.19 crashes in the dispatch threads of an
// async program, so `authorization-request` and `full-sign-in` (which await actors) are for `perf record` only.
// Everything a path needs is built before the loop, so the count per iteration is the path alone.
switch arguments[1] {
case "id-token-rs256", "id-token-es256":
    let fixture = TokenFixture(arguments[1].hasSuffix("rs256") ? .rs256 : .es256)
    for _ in 0..<iterations { consume(try fixture.validate()) }
case "raw-rs256", "raw-es256":
    let verify = TokenFixture(arguments[1].hasSuffix("rs256") ? .rs256 : .es256).rawVerifier()
    for _ in 0..<iterations { precondition(verify()) }
case "redirect":
    let redirect = FixedProvider.sampleRedirect()
    for _ in 0..<iterations { consume(try RedirectHarness.parse(redirect, expecting: FixedProvider.redirectURI)) }
case "authorization-request":
    let fixture = AuthorizationRequestFixture()
    // Off the main actor, as an app's or a server's task would call it.
    try await Task.detached {
        for _ in 0..<iterations { consume(try await fixture.prepare()) }
    }.value
case "full-sign-in":
    let fixture = try SignInFixture()
    try await Task.detached {
        for _ in 0..<iterations { consume(try await fixture.signIn()) }
    }.value
default:
    let registry = ProviderRegistry.builtIn
    let configurations = ProviderEmulator.emulatedProviderIDs.compactMap { id in ProviderEmulator.make(for: id).map { (id, $0.configuration) } }
    for _ in 0..<iterations {
        for (id, configuration) in configurations { consume(try registry.provider(named: id.rawValue, configuration: configuration)) }
    }
}
