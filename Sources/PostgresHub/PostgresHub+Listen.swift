import JournalKit
import JournalSync
import PostgresNIO

extension PostgresHub {
    /// Listens on the hub's channel over a connection of its own until the task is cancelled (then it
    /// returns) or the connection is lost (then it throws). `listening` is called once the server
    /// listens; `rang` for each notification of another device than `ownDevice`, after noting its time.
    public nonisolated func listen(
        ownDevice: DeviceID, clock: any JournalClock, listening: @escaping @Sendable () -> Void,
        rang: @escaping @Sendable () -> Void
    ) async throws {
        let link = try await connector.connect()
        do {
            try await link.connection.listen(on: ServerSchema.channel) { notifications in
                listening()
                for try await notification in notifications where notification.payload != ownDevice.rawValue {
                    await self.rang(at: clock.now())
                    rang()
                }
            }
        } catch {
            await link.close()
            throw PostgresConnector.failure(error, location: connector.location)
        }
        await link.close()
    }
}
