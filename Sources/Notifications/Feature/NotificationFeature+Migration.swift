import Foundation
import Loom

extension NotificationFeature {
  /// The change log saved, with what an earlier version kept in the settings moved into it on
  /// the first launch that finds it: its outbox (`SettingsKey.outbox`), and its pushes the feed
  /// had not listed and its local notices (`SettingsKey.pushes`), older than anything in the
  /// log (see ``ChangeLog/init(migrating:pushes:receivedAt:ids:)``). The moved rows are written
  /// to the store first, then the settings keys are emptied: a launch killed in between moves
  /// them again, under the same record ids, which the log then holds already.
  ///
  /// Called by the launch's read, before anything of this launch is written. It runs on the
  /// caller's executor, as the store and the settings do: a hop to another executor would let
  /// the restore's answer come at a time the caller's own work does not decide.
  nonisolated(nonsending) static func loadLog(
    from store: ChangeLogStore, migrating settings: SettingsClient, receivedAt now: Date
  ) async throws -> ChangeLog {
    let loaded = try await store.load()
    // What cannot be read is left as it is: there is nothing of it to move.
    let outbox =
      (try? await settings.load(NotificationsFeature.SavedOutbox.self, forKey: SettingsKey.outbox))
      ?? NotificationsFeature.SavedOutbox(entries: [])
    let pushes =
      (try? await settings.load(NotificationsFeature.SavedPushes.self, forKey: SettingsKey.pushes))
      ?? NotificationsFeature.SavedPushes()
    guard !outbox.entries.isEmpty || !pushes.pushes.isEmpty || !pushes.notices.isEmpty else {
      return loaded
    }
    var next = 0
    let legacy = ChangeLog(migrating: outbox, pushes: pushes, receivedAt: now) {
      next += 1
      return Self.migratedRecordID(next)
    }
    let migrated = legacy.merging(newer: loaded)
    try await store.write(migrated.writes(from: loaded))
    try await settings.save(
      NotificationsFeature.SavedOutbox(entries: []), forKey: SettingsKey.outbox)
    try await settings.save(NotificationsFeature.SavedPushes(), forKey: SettingsKey.pushes)
    return migrated
  }

  /// The id of the `index`th change moved from an earlier version's outbox (from 1): the same
  /// at every launch, so a change moved twice is held once.
  public static func migratedRecordID(_ index: Int) -> UUID {
    let hex = String(UInt64(index), radix: 16, uppercase: true)
    let digits = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    return UUID(uuidString: "4D494752-0000-4000-8000-\(digits)") ?? UUID()
  }
}
