import Foundation

/// Throwaway TLS material made with `openssl`: a certificate authority, a server certificate for
/// `localhost` and `127.0.0.1`, and a client certificate, both signed by that authority.
///
/// Every file is world-readable: mosquitto started as root may drop to another user before reading them.
public struct TLSFiles: Sendable {
    /// The authority's certificate (what clients and servers trust).
    public let caFile: String
    /// The authority's private key.
    public let caKeyFile: String
    /// The server certificate, valid for `DNS:localhost` and `IP:127.0.0.1`.
    public let serverCertFile: String
    public let serverKeyFile: String
    /// A client certificate for listeners with `require_certificate true`.
    public let clientCertFile: String
    public let clientKeyFile: String

    /// Generates a fresh authority and its two certificates in `directory`; `name` prefixes every file,
    /// so several independent sets can share one folder.
    public static func generate(in directory: TemporaryDirectory, name: String = "test") async throws -> TLSFiles {
        let openssl = try TestTools.locate("openssl", package: "openssl")
        let file = { (suffix: String) in directory.file("\(name)-\(suffix)") }
        let files = TLSFiles(
            caFile: file("ca.crt"), caKeyFile: file("ca.key"), serverCertFile: file("server.crt"),
            serverKeyFile: file("server.key"), clientCertFile: file("client.crt"), clientKeyFile: file("client.key"))
        // Own config files, so the system's openssl.cnf cannot add or clash with extensions.
        let caConfig = try directory.write(
            "\(name)-ca.cnf",
            """
            [req]
            distinguished_name = subject
            prompt = no
            x509_extensions = authority
            [subject]
            CN = things2mqtt test CA \(name) \(UUID().uuidString.prefix(8))
            [authority]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash

            """)
        let serverExtensions = try directory.write(
            "\(name)-server.ext",
            """
            basicConstraints = CA:FALSE
            keyUsage = critical, digitalSignature, keyEncipherment
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:localhost, IP:127.0.0.1
            authorityKeyIdentifier = keyid

            """)
        let clientExtensions = try directory.write(
            "\(name)-client.ext",
            """
            basicConstraints = CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = clientAuth
            authorityKeyIdentifier = keyid

            """)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await TestTools.run(
            openssl,
            ["req", "-x509", "-config", caConfig, "-days", "2"] + curve + ["-keyout", files.caKeyFile, "-out", files.caFile],
            logs: directory)
        for (role, subject, extensions, cert, key) in [
            ("server", "/CN=localhost", serverExtensions, files.serverCertFile, files.serverKeyFile),
            ("client", "/CN=things2mqtt test client", clientExtensions, files.clientCertFile, files.clientKeyFile),
        ] {
            let request = file("\(role).csr")
            try await TestTools.run(
                openssl, ["req", "-new", "-config", caConfig, "-subj", subject] + curve + ["-keyout", key, "-out", request],
                logs: directory)
            try await TestTools.run(
                openssl,
                [
                    "x509", "-req", "-in", request, "-CA", files.caFile, "-CAkey", files.caKeyFile,
                    "-set_serial", String(UInt32.random(in: 1...UInt32.max)), "-days", "2", "-extfile", extensions,
                    "-out", cert,
                ], logs: directory)
        }
        for path in [files.caFile, files.caKeyFile, files.serverCertFile, files.serverKeyFile, files.clientCertFile,
            files.clientKeyFile]
        {
            chmod(path, 0o644)
        }
        return files
    }
}
