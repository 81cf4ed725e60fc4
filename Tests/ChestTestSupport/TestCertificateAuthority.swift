import Foundation

/// A throwaway certificate authority and a server certificate it signed for 127.0.0.1 and localhost, made with
/// the `openssl` command, for brokers that listen with TLS.
package struct TestCertificateAuthority: Sendable {
    /// The CA certificate (PEM): what a client trusts.
    package let caFile: String
    /// The server's certificate and private key (PEM).
    package let certificateFile: String
    package let keyFile: String

    /// Makes the CA and the server certificate in `directory`.
    package init(in directory: URL) throws {
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        caFile = path("ca.crt")
        certificateFile = path("server.crt")
        keyFile = path("server.key")
        let extensions = path("server.ext")
        // Host name checking needs the names in subjectAltName: OpenSSL ignores the CN when it is present.
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + curve + [
                "-keyout", path("ca.key"), "-out", caFile, "-days", "2",
                "-subj", "/CN=chest test CA",
            ])
        try Self.openssl(["req"] + curve + ["-keyout", keyFile, "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try Self.openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", caFile, "-CAkey", path("ca.key"),
            "-CAcreateserial", "-out", certificateFile, "-days", "2", "-extfile", extensions,
        ])
    }

    private static func openssl(_ arguments: [String]) throws {
        let outcome = try Subprocess.run(
            "/usr/bin/openssl", arguments, environment: ProcessInfo.processInfo.environment)
        guard outcome.status == 0 else {
            throw SpawnFailure(description: "openssl \(arguments.joined(separator: " ")): \(outcome.stderr)")
        }
    }
}
