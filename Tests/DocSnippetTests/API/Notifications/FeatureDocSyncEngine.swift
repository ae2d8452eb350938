// The snippets of the doc comments of NotificationSyncEngine and of the "sync engine" section of
// Docs/NotificationFeature.md: a small list that hands its changes to the engine, as
// NotificationsFeature does, and a test of the engine alone.

import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// A list of read ids whose changes the sync engine confirms, as NotificationsFeature's are.
struct FeatureDocSyncList: Reducer {
  struct State: Equatable {
    var readIDs: Set<String> = []
    var sync = NotificationSyncEngine.State()
    var error: UserFacingError?
  }
  enum Action: Sendable, Equatable {
    case markAsRead(String)
    case sync(NotificationSyncEngine.Action)
  }

  var body: some ReducerOf<Self> {
    // snippet: sync-engine-scope
    Scope(state: \.sync, action: .sync) { NotificationSyncEngine() }
    // snippet: end
    Reduce { state, action in
      switch action {
      case .markAsRead(let id):
        let change = NotificationsFeature.PendingChange.setRead(
          id: id, isRead: true, previous: false)
        // snippet: sync-engine-perform
        state.readIDs.insert(id)
        return NotificationSyncEngine()
          .perform(change, sending: .markAsRead(id), in: &state.sync)
          .map(Action.sync)
      // snippet: end
      case .sync(.delegate(.rollBack(let change, let error))):
        if case .setRead(let id, _, _) = change { state.readIDs.remove(id) }
        state.error = error
        return .none
      case .sync:
        return .none
      }
    }
  }
}

extension CasePath where Root == FeatureDocSyncList.Action, Value == NotificationSyncEngine.Action {
  static var sync: Self {
    Self(FeatureDocSyncList.Action.sync) { if case .sync(let action) = $0 { action } else { nil } }
  }
}

@MainActor
struct FeatureDocSyncEngineTests {
  @Test func aListHandsItsChangesToTheEngineAndRollsBackWhatItSays() async {
    let store = TestStore(initialState: FeatureDocSyncList.State()) {
      FeatureDocSyncList()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.notificationClient.markAsRead = { _ in throw UserFacingError.notFound }
    }
    let change = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    await store.send(.markAsRead("n1")) {
      $0.readIDs = ["n1"]
      $0.sync.pendingChanges[UUID(0)] = change
    }
    await store.receive(.sync(.changeFailed(UUID(0), .notFound))) { $0.sync.pendingChanges = [:] }
    await store.receive(.sync(.delegate(.rollBack(change, error: .notFound)))) {
      $0.readIDs = []
      $0.error = .notFound
    }
  }

  @Test func theEngineAloneSaysToRollBackAChangeThatFailsForGood() async {
    // snippet: sync-engine-testing
    let change = NotificationsFeature.PendingChange.setRead(id: "n1", isRead: true, previous: false)
    var state = NotificationSyncEngine.State()
    state.pendingChanges[UUID(0)] = change
    let store = TestStore(initialState: state) { NotificationSyncEngine() }
    await store.send(.changeFailed(UUID(0), .notFound)) { $0.pendingChanges = [:] }
    await store.receive(.delegate(.rollBack(change, error: .notFound)))
    // snippet: end
  }
}
