import HTTPHubSupport
import JournalKit

/// Where an S3 hub's credentials and region come from, as every AWS tool looks: the URL's `?profile=`
/// in the AWS files; else `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`);
/// else the profile `AWS_PROFILE` names, or `default`. Looked up at each request, so that a key or
/// token renewed in the files or environment is used at once; nothing found is a failure that says
/// where it looked, never with a secret in it.
struct S3CredentialSource: Sendable {
    let location: S3Location
    /// The environment, as `JournalPaths.environment` reads it; a test passes its own.
    let environment: @Sendable (String) -> String?

    init(location: S3Location, environment: @escaping @Sendable (String) -> String? = { JournalPaths.environment($0) }) {
        self.location = location
        self.environment = environment
    }

    var credentialsFile: String? { file("AWS_SHARED_CREDENTIALS_FILE", default: "/.aws/credentials") }
    var configFile: String? { file("AWS_CONFIG_FILE", default: "/.aws/config") }

    private func file(_ variable: String, default name: String) -> String? {
        if let path = environment(variable), path.hasPrefix("/") { return path }
        return environment("HOME").flatMap { $0.hasPrefix("/") ? $0 + name : nil }
    }

    /// The profile the files are read for.
    var profile: String { location.profile ?? environment("AWS_PROFILE").flatMap { $0.isEmpty ? nil : $0 } ?? "default" }

    /// True when the key comes from the environment: the URL names no profile, and both variables are set.
    var keyFromEnvironment: Bool {
        location.profile == nil && !(environment("AWS_ACCESS_KEY_ID") ?? "").isEmpty && !(environment("AWS_SECRET_ACCESS_KEY") ?? "").isEmpty
    }

    /// The files a key is looked for in.
    var looked: [String] { [credentialsFile, configFile].compactMap { $0 } }

    /// The credentials to sign with.
    func credentials() throws -> S3Credentials {
        if keyFromEnvironment, let id = environment("AWS_ACCESS_KEY_ID"), let secret = environment("AWS_SECRET_ACCESS_KEY") {
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: environment("AWS_SESSION_TOKEN").flatMap { $0.isEmpty ? nil : $0 })
        }
        let settings = try AWSProfiles.settings(of: profile, credentialsFile: credentialsFile, configFile: configFile)
        guard let id = settings["aws_access_key_id"], !id.isEmpty, let secret = settings["aws_secret_access_key"], !secret.isEmpty else {
            throw S3HubError.credentialsMissing(profile: profile, looked: looked)
        }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: settings["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The location with what this environment and the files settle named in it: the endpoint, the
    /// region, the profile `AWS_PROFILE` names and the authorities to trust. The journal records it,
    /// so that journal-syncd, which sees none of a shell's variables, reaches the same store the same
    /// way.
    func settled() throws -> S3Location {
        let endpoint = try location.endpoint ?? configuredEndpoint()
        let named = location.profile ?? environment("AWS_PROFILE").flatMap { $0.isEmpty ? nil : $0 }
        if let named, !S3Location.isProfileName(named) { throw S3HubError.badProfile(named, source: "AWS_PROFILE") }
        // A bundle AWS tools are given is for TLS: a plain endpoint (this machine's) has none to check.
        let authorities = endpoint?.secure == false ? nil : try location.rootCertificate ?? configuredAuthorities()
        return S3Location(
            bucket: location.bucket, prefix: location.prefix, endpoint: endpoint, region: try region(), profile: named, rootCertificate: authorities)
    }

    /// The variables that give this shell's key or the files it is read from, which a systemd user
    /// service does not have.
    static let shellOnly = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE"]

    /// Where journal-syncd looks for the key of the settled location: its HOME's files alone.
    var service: S3CredentialSource {
        S3CredentialSource(location: location, environment: JournalPaths.asTheServiceHasIt(environment))
    }

    /// What journal-syncd would sign with, against this shell, when it is not this shell's key: nil
    /// when it is the same, or there is no key here (which the first request says).
    func serviceWarning() -> String? {
        guard let here = try? credentials() else { return nil }
        let files = service.credentialsFile ?? "~/.aws/credentials"
        let finds: String
        switch Result(catching: { try service.credentials() }) {
        case .success(let there) where there.accessKeyID == here.accessKeyID && there.secretAccessKey == here.secretAccessKey:
            return nil
        case .success(let there) where there.accessKeyID == here.accessKeyID:
            finds = "finds another secret for the access key \(there.accessKeyID) in profile \(service.profile) of \(files)"
        case .success(let there):
            finds = "would sign with the access key \(there.accessKeyID) of profile \(service.profile) in \(files) instead"
        case .failure(let error as S3HubError) where error == .credentialsMissing(profile: service.profile, looked: service.looked):
            finds = "finds no key for profile \(service.profile) in \(files)"
        case .failure(let error):
            finds = "cannot read a key there: \(error)"
        }
        let unseen = Self.shellOnly.filter { !(environment($0) ?? "").isEmpty }
        return "journal-syncd, the background service, does not see this shell's \(unseen.joined(separator: ", ")), and \(finds): "
            + "put the key there (chmod 600), or name a profile that holds it with ?profile= in the hub's URL; until then only "
            + "`journal sync` run from a shell like this one syncs with this key."
    }

    /// The store's server as AWS tools configure one when the URL names none: `AWS_ENDPOINT_URL_S3`,
    /// `AWS_ENDPOINT_URL`, the `s3` `endpoint_url` of the services section the profile names, or the
    /// profile's `endpoint_url`; none while `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` or the profile's
    /// `ignore_configured_endpoint_urls` is true. Nil for AWS's.
    func configuredEndpoint() throws -> HTTPServer? {
        let settings = try AWSProfiles.settings(of: profile, credentialsFile: nil, configFile: configFile)
        // The variable, when set, over the profile's setting, either way.
        let ignoring = environment("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS").flatMap { $0.isEmpty ? nil : $0 } ?? settings["ignore_configured_endpoint_urls"]
        if ignoring?.lowercased() == "true" { return nil }
        var found: (url: String, source: String)?
        for variable in ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"] where found == nil {
            if let url = environment(variable), !url.isEmpty { found = (url, variable) }
        }
        if found == nil, let services = settings["services"], !services.isEmpty,
            let url = try AWSProfiles.services(services, configFile: configFile)["s3.endpoint_url"], !url.isEmpty
        {
            found = (url, "the services section \(services) of \(configFile ?? "the config file")")
        }
        if found == nil, let url = settings["endpoint_url"], !url.isEmpty { found = (url, "the profile \(profile) of \(configFile ?? "the config file")") }
        guard let found else { return nil }
        let endpoint = try S3Location.parseEndpoint(found.url) { .badConfiguredEndpoint(source: found.source, problem: $0) }
        return HTTPServer(secure: endpoint.secure, host: endpoint.host, port: endpoint.port, rootCertificate: nil)
    }

    /// The certificate authorities AWS tools are configured to trust: `AWS_CA_BUNDLE`, or the profile's
    /// `ca_bundle`; nil for the system's.
    func configuredAuthorities() throws -> String? {
        if let bundle = environment("AWS_CA_BUNDLE"), !bundle.isEmpty { return FileSystem.absolute(bundle) }
        let settings = try AWSProfiles.settings(of: profile, credentialsFile: nil, configFile: configFile)
        return settings["ca_bundle"].flatMap { $0.isEmpty ? nil : FileSystem.absolute($0) }
    }

    /// The region to sign for: the URL's, `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's, or us-east-1
    /// (R2 takes "auto", and any store with an endpoint takes us-east-1).
    func region() throws -> String {
        if let region = location.region { return region }
        var found: (region: String, source: String)?
        for variable in ["AWS_REGION", "AWS_DEFAULT_REGION"] where found == nil {
            if let region = environment(variable), !region.isEmpty { found = (region, variable) }
        }
        if found == nil, let region = try AWSProfiles.settings(of: profile, credentialsFile: nil, configFile: configFile)["region"], !region.isEmpty {
            found = (region, configFile ?? "the config file")
        }
        guard let found else { return "us-east-1" }
        // It names the server requests go to: nothing but a region's letters.
        guard S3Location.isRegion(found.region) else { throw S3HubError.badRegion(found.region, source: found.source) }
        return found.region
    }
}
