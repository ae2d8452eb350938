import Foundation
import Loom
import LoomTesting
import Notifications

extension TestStore
where State == NotificationsFeature.State, Action == NotificationsFeature.Action {
  /// Receives the end of a write of the saved pushes (see `NotificationsFeature+SavedPushes`),
  /// which leaves nothing being written.
  func receivePushesSaved(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .pushesSaved, assert: { $0.pushesBeingSaved = nil }, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// The saved pushes holding `pushes`, newest first, and the ids of pushes deleted before the
/// feed listed them.
func saved(
  _ pushes: NotificationData..., deleted: [String] = []
) -> NotificationsFeature.SavedPushes {
  NotificationsFeature.SavedPushes(pushes: pushes, deletedIDs: deleted)
}
