import CommandLineSupport

/// A WebDAV hub on the command line.
public enum WebDAVHubWords: HubKindWords {
    public static let place = "a WebDAV server"
    public static let naming = """
        a WebDAV server (Nextcloud, ownCloud, a NAS, Apache, nginx) by davs://USER@HOST/PATH (dav:// on this machine \
        only; ?sslrootcert=FILE for a private certificate authority), its login from ~/.netrc (or NETRC), or \
        asked for and kept 0600 beside the sync key
        """
}
