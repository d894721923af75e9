import CommandLineSupport

/// A folder hub on the command line.
public enum FolderHubWords: HubKindWords {
    public static let place = "a folder"
    public static let naming = "a folder by its path (local, NFS, Syncthing, Dropbox) or file:///PATH"
}
