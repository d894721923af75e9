import NIOCore
import NIOSSL
import NIOTLS

/// TLS begun on our own socket as libpq begins it, before PostgresNIO has the channel: the
/// SSLRequest, the server's one-byte answer, the handshake, and for `verify-full` the check of the
/// server's name (`ServerName`) once NIOSSL has checked the chain. PostgresNIO adds its TLS handler
/// itself and writes its first message the moment the handshake ends, leaving no point at which to
/// check the name before a password could follow; on this channel it starts with TLS already on.
enum TLSRequest {
    /// Asks for TLS; true when the handshake is done, false when the server declined (it said "N").
    /// `verifyHost` is the host the certificate must name, for `verify-full`.
    static func begin(on channel: any Channel, context: NIOSSLContext, serverName: String?, verifyHost: String?) async throws -> Bool {
        let answer = channel.eventLoop.makePromise(of: Bool.self)
        // A handler added to a channel that closed meanwhile is never told: the answer fails with the
        // channel all the same (a promise completed twice keeps its first outcome).
        channel.closeFuture.whenComplete { _ in answer.fail(TLSRequestError.closed) }
        try await channel.eventLoop.submit {
            let tls = try NIOSSLClientHandler(context: context, serverHostname: serverName)
            try channel.pipeline.syncOperations.addHandler(AnswerHandler(answer: answer, tls: tls))
            var request = channel.allocator.buffer(capacity: 8)
            request.writeInteger(Int32(8))
            request.writeInteger(Int32(80_877_103))
            channel.writeAndFlush(request, promise: nil)
        }.get()
        guard try await answer.futureResult.get() else { return false }
        if let verifyHost {
            guard let certificate = try await channel.nioSSL_peerCertificate().get() else { throw TLSRequestError.noCertificate }
            let names = try CertificateNames(der: certificate.toDERBytes())
            guard ServerName.matches(host: verifyHost, names) else { throw TLSRequestError.notForHost(names) }
        }
        return true
    }

    /// Reads the server's answer, then puts TLS in its place and waits for the handshake to end.
    private final class AnswerHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let answer: EventLoopPromise<Bool>
        private var tls: NIOSSLClientHandler?
        private var answered = false

        init(answer: EventLoopPromise<Bool>, tls: NIOSSLClientHandler) {
            self.answer = answer
            self.tls = tls
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            guard !answered, let byte = buffer.readInteger(as: UInt8.self) else { return }
            answered = true
            switch byte {
            case UInt8(ascii: "S"):
                // Bytes after the "S" came before encryption, from anyone on the path (CVE-2021-23222).
                guard buffer.readableBytes == 0, let tls else { return fail(TLSRequestError.unencryptedBytes, context: context) }
                do {
                    try context.pipeline.syncOperations.addHandler(HandshakeHandler(answer: answer), position: .after(self))
                    try context.pipeline.syncOperations.addHandler(tls, position: .after(self))
                } catch {
                    return fail(error, context: context)
                }
                self.tls = nil
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            case UInt8(ascii: "N"):
                guard buffer.readableBytes == 0 else { return fail(TLSRequestError.unexpectedAnswer, context: context) }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                answer.succeed(false)
            default:
                fail(TLSRequestError.unexpectedAnswer, context: context)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { fail(error, context: context) }

        func channelInactive(context: ChannelHandlerContext) {
            if !answered { answer.fail(TLSRequestError.closed) }
            answered = true
            context.fireChannelInactive()
        }

        private func fail(_ error: any Error, context: ChannelHandlerContext) {
            answered = true
            answer.fail(error)
            context.close(promise: nil)
        }
    }

    /// Says when the handshake ended, or why it failed.
    private final class HandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private var answer: EventLoopPromise<Bool>?

        init(answer: EventLoopPromise<Bool>) { self.answer = answer }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard case TLSUserEvent.handshakeCompleted = event else { return context.fireUserInboundEventTriggered(event) }
            answer?.succeed(true)
            answer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            answer?.fail(error)
            answer = nil
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            answer?.fail(TLSRequestError.closed)
            answer = nil
            context.fireChannelInactive()
        }
    }
}

/// Why TLS could not begin, besides NIOSSL's own errors.
enum TLSRequestError: Error {
    /// The connection closed before TLS was set up.
    case closed
    /// The server answered the SSLRequest with neither "S" nor "N", or with more than the answer.
    case unexpectedAnswer
    case unencryptedBytes
    case noCertificate
    /// The certificate chains to a trusted authority but does not name the host; its names.
    case notForHost(CertificateNames)
}
