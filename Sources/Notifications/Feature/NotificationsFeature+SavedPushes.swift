import Foundation
import Loom

/// Where a push is kept: pushes the backend's feed has not listed are saved through the
/// settings client, so a push shown to the person stays listed across relaunches, not only
/// across refreshes, until they delete it or the feed lists it.
///
/// What is saved (``NotificationsFeature/SavedPushes``), and when:
/// - the local notices in the list (newest first, at most
///   ``NotificationsFeature/maximumSavedNotices``): they live on the device only;
/// - the pushes in the list that the feed has not listed (``State/unlistedPushIDs``), with the
///   read state the person gave them, newest first, at most
///   ``NotificationsFeature/maximumSavedPushes`` (the oldest are left out: after a relaunch
///   they are gone until the backend lists them);
/// - the ids of the pushes the person deleted before the feed listed them
///   (``State/deletedPushIDs``), oldest first, at most
///   ``NotificationsFeature/maximumSavedDeletedPushes``: a late duplicate delivery of one is
///   not listed again after a relaunch either, and when the feed lists one, the backend is
///   told to delete it.
///
/// Whatever changes that value (a push, a read, a delete, the feed listing a push) writes it,
/// one write at a time: a change made while a write is in flight is written after it, so the
/// last write is the latest value. `onAppear` restores it before it loads the first page, so
/// that page, and every refresh after it, keeps the restored pushes.
///
/// What the person does to a push the feed has not listed stays here until it does: reading,
/// tapping or deleting it changes the list and the saved pushes, not the backend (which has
/// no such notification to change). When the feed lists it, a push read here stays read and
/// the backend is told; a push deleted here is not listed and the backend deletes it.
extension NotificationsFeature {
  /// The pushes kept across launches; see `NotificationsFeature+SavedPushes.swift`.
  public struct SavedPushes: Sendable, Hashable, Codable {
    /// Pushes the backend's feed had not listed, newest first, as the person left them.
    public var pushes: [NotificationData]
    /// Pushes the person deleted before the backend's feed listed them, oldest first.
    public var deletedIDs: [String]
    /// The local notices in the list (``NotificationData/isLocal``), newest first: kept on the
    /// device only, listed until the person deletes them.
    public var notices: [NotificationData]

    public init(
      pushes: [NotificationData] = [], deletedIDs: [String] = [], notices: [NotificationData] = []
    ) {
      self.pushes = pushes
      self.deletedIDs = deletedIDs
      self.notices = notices
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      pushes = try container.decode([NotificationData].self, forKey: .pushes)
      deletedIDs = try container.decode([String].self, forKey: .deletedIDs)
      // An older version saved no notices.
      notices = try container.decodeIfPresent([NotificationData].self, forKey: .notices) ?? []
    }
  }

  /// How many of the pushes the feed has not listed are saved: the newest ones.
  public static let maximumSavedPushes = 100
  /// How many local notices are saved: the newest ones.
  public static let maximumSavedNotices = 100
  /// How many ids of pushes deleted before the feed listed them are remembered: the latest.
  public static let maximumSavedDeletedPushes = 100

  /// What the person did to pushes before the backend's feed listed them, which the backend is
  /// told once it does.
  struct OwedToBackend {
    /// Pushes read here that the feed lists unread.
    var read: [String] = []
    /// Pushes deleted here that the feed lists, with where each was listed (for a rollback).
    var deleted: [(notification: NotificationData, index: Int)] = []
  }

  /// The value saved under ``SettingsKey/pushes`` for `state`.
  ///
  /// - Complexity: O(*u* log *u*) for *u* pushes the feed has not listed and local notices.
  static func savedPushes(_ state: State) -> SavedPushes {
    let pushes = state.unlistedPushIDs.compactMap { state.notifications[id: $0] }
      .sorted(by: NotificationData.isOrderedBefore)
      .prefix(maximumSavedPushes)
    let notices = state.localNoticeIDs.compactMap { state.notifications[id: $0] }
      .sorted(by: NotificationData.isOrderedBefore)
      .prefix(maximumSavedNotices)
    return SavedPushes(
      pushes: Array(pushes), deletedIDs: state.deletedPushIDs, notices: Array(notices))
  }

  /// Deletes a push the feed has not listed: here only, remembered so that neither a
  /// duplicate delivery nor the feed lists it again, and so that the backend deletes it once
  /// its feed lists it.
  func deleteUnlistedPush(_ id: String, in state: inout State) {
    state.unlistedPushIDs.remove(id)
    state.deletedIDs.insert(id)
    rememberDeletedPush(id, in: &state)
  }

  func rememberDeletedPush(_ id: String, in state: inout State) {
    state.deletedPushIDs.removeAll { $0 == id }
    state.deletedPushIDs.append(id)
    let excess = state.deletedPushIDs.count - Self.maximumSavedDeletedPushes
    if excess > 0 { state.deletedPushIDs.removeFirst(excess) }
  }

  /// Whether the feed's `notification` is a push the person deleted here: it is not listed,
  /// and `owed` gets it, for the backend to delete it.
  func isDeletedPush(
    _ notification: NotificationData, in state: inout State, owed: inout OwedToBackend
  ) -> Bool {
    guard let position = state.deletedPushIDs.firstIndex(of: notification.id) else {
      return false
    }
    state.deletedPushIDs.remove(at: position)
    state.deletedIDs.insert(notification.id)
    let index = state.notifications.insertionIndex(for: notification)
    owed.deleted.append((notification, index))
    return true
  }

  /// Lists what a previous launch saved, with the rules of ``listPush(_:in:)``: a push listed
  /// already stays one item (read if the person had read it, and the backend is told when its
  /// feed lists it unread), and a push whose deletion is pending, queued or remembered is not
  /// listed. A deleted push the feed lists already is taken out and deleted on the backend.
  func restore(_ saved: SavedPushes, in state: inout State, owed: inout OwedToBackend) {
    for notice in saved.notices where notice.isLocal && !state.notifications.contains(id: notice.id)
    {
      upsert(notice, into: &state)
      state.localNoticeIDs.insert(notice.id)
    }
    for id in saved.deletedIDs where !state.deletedPushIDs.contains(id) {
      if let listed = state.notifications[id: id] {
        let index = state.notifications.index(id: id) ?? 0
        state.notifications.remove(id: id)
        if state.unlistedPushIDs.remove(id) == nil { owed.deleted.append((listed, index)) }
      }
      state.deletedIDs.insert(id)
      rememberDeletedPush(id, in: &state)
    }
    for push in saved.pushes where !state.deletedPushIDs.contains(push.id) {
      guard let listed = state.notifications[id: push.id] else {
        if !state.deletedIDs.contains(push.id), upsert(push, into: &state) {
          state.unlistedPushIDs.insert(push.id)
        }
        continue
      }
      guard push.isRead, !listed.isRead else { continue }
      state.notifications[id: push.id]?.isRead = true
      if !state.unlistedPushIDs.contains(push.id) { owed.read.append(push.id) }
    }
  }

  /// Tells the backend what the person did to pushes before its feed listed them: the reads
  /// as one optimistic mark-all change, each delete as an optimistic delete (rolled back or
  /// queued like any other).
  func tellBackend(_ owed: OwedToBackend, in state: inout State) -> Effect<Action> {
    var effects = [markReadOnBackend(owed.read, in: &state)]
    for (notification, index) in owed.deleted {
      let id = notification.id
      effects.append(perform(.delete(notification, index: index), sending: .delete(id), in: &state))
    }
    return .merge(effects)
  }

  /// Writes the saved pushes, unless a write is in flight: then `pushesSaved` writes the
  /// latest value once it finishes, so the last write is the latest.
  func savePushes(_ state: inout State) -> Effect<Action> {
    guard state.pushesBeingSaved == nil else { return .none }
    let saved = Self.savedPushes(state)
    state.pushesBeingSaved = saved
    return .run { [settings] send in
      try? await settings.save(saved, forKey: SettingsKey.pushes)
      await send(.pushesSaved)
    }
  }

  /// Loads the pushes a previous launch saved; nothing when none were, or they cannot be read.
  func loadSavedPushes() -> Effect<Action> {
    .run { [settings] send in
      guard let saved = try? await settings.load(SavedPushes.self, forKey: SettingsKey.pushes),
        saved != SavedPushes()
      else { return }
      await send(.savedPushesRestored(saved))
    }
  }
}
