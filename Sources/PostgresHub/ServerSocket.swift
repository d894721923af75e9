import NIOCore
import NIOPosix

/// The socket to a hub's server, opened by us rather than by PostgresNIO: keep-alives find a server
/// that vanished without a word (PostgresNIO sets none), and the connection is bounded by
/// `connect_timeout`, so a server that never answers is not waited for forever.
enum ServerSocket {
    /// A connected channel to `location`'s server, on `loop`: its Unix socket, or TCP.
    static func open(_ location: PostgresLocation, on loop: any EventLoop) async throws -> any Channel {
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(Int64(location.connectTimeout)))
            .channelOption(.socketOption(.so_keepalive), value: location.isSocket ? 0 : 1)
        if location.isSocket { return try await bootstrap.connect(unixDomainSocketPath: location.socketPath).get() }
        let channel = try await bootstrap.connect(host: location.host, port: location.port).get()
        setKeepAlive(channel)
        return channel
    }

    /// Probes after a minute of silence, every 10 s, 6 times: a dead server is noticed in two minutes.
    private static func setKeepAlive(_ channel: any Channel) {
        for (option, value) in [(TCP_KEEPIDLE, 60), (TCP_KEEPINTVL, 10), (TCP_KEEPCNT, 6)] {
            channel.setOption(.tcpOption(NIOBSDSocket.Option(rawValue: option)), value: SocketOptionValue(value)).whenComplete { _ in }
        }
    }
}
