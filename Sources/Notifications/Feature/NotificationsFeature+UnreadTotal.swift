import Foundation
import Loom

/// The unread count is the backend's total, not only what is loaded: 120 unread on the backend
/// read 120 after a first page of 50.
///
/// The list's feed counts its own unread notifications, with every optimistic change, unlisted
/// push and local notice in it, in O(1) per change. The rest is ``State/unreadNotLoaded``: the
/// unread notifications the backend has beyond the list, from a first page's `unreadTotal`
/// less the unread notifications on that page. So the count is the backend's total adjusted
/// by what the person did here that it has not confirmed yet, and a change made here moves it
/// at once, as the list changes, and back if it is rolled back.
///
/// What changes the part not loaded:
/// - a first page (a refresh) sets it from its total, and a snapshot (the whole feed) to 0;
/// - a later page takes out the unread notifications it loads that the list did not have;
/// - a live update of a notification the list does not hold loads it: a backend's update is a
///   change of read state, so one that is read now was unread and leaves the part not loaded;
/// - clear-all sets it to 0 (the backend deletes everything), and so does a first page while a
///   clear-all is pending or queued; its rollback restores it.
///
/// A push the backend has not listed is not in the total it gave (the push came after it): it
/// adds one, and when the backend lists it, by a live change or a later page, the count stays.
///
/// What it cannot know, each right again after a later refresh:
/// - a change made here to a notification that a refresh no longer lists (it moved past the
///   first page while the change was in flight or queued) is out of the count until the
///   backend has applied it and the list is refreshed;
/// - a live deletion of a notification that is not loaded is not counted until a refresh;
/// - a push older than the whole first page, which the backend had at a refresh that did not
///   list it, counts twice until a later page lists it and the list is refreshed;
/// - from a backend whose pages do not say which change they reflect (`changeCursor`), a
///   catch-up after a refresh may replay an update the page already has, taking a
///   notification out a second time. A page that says so is where the catch-up starts.
extension NotificationsFeature {
  /// The unread notifications the backend has beyond a first page: its total less the unread
  /// notifications it lists, as the backend has them. None while a clear-all is pending or
  /// queued. `nil` when the page carries no total.
  ///
  /// - Complexity: O(*p* + *c*) for a page of *p* notifications and *c* pending or queued
  ///   changes; once per page.
  func unreadNotLoaded(besides firstPage: NotificationPage, in state: State) -> Int? {
    guard let total = firstPage.unreadTotal else { return nil }
    if state.sync.isClearAllPending { return 0 }
    return max(0, total - firstPage.items.count(where: { !$0.isRead }))
  }

  /// Takes a notification a later page loads out of the unread ones not loaded: one unread
  /// that the list does not have yet. A notification the list has, or whose deletion is
  /// pending, is not among them.
  ///
  /// - Complexity: O(1) for a notification the list has; otherwise O(*c*) for *c* pending or
  ///   queued changes, as listing it is.
  func countLoading(_ notification: NotificationData, in state: inout State) {
    guard let notLoaded = state.unreadNotLoaded, notLoaded > 0, !notification.isRead,
      !isLoaded(notification, in: state)
    else { return }
    state.unreadNotLoaded = notLoaded - 1
  }

  /// Takes a live update of a notification that is not loaded out of the unread ones not
  /// loaded: the update loads it, and it changed its read state, so one that is read now was
  /// unread. One that is unread now was read: the list counts it once it is listed.
  ///
  /// - Complexity: O(1) for a notification the list has; otherwise O(*c*) for *c* pending or
  ///   queued changes, as listing it is.
  func countUpdateOfNotLoaded(_ notification: NotificationData, in state: inout State) {
    guard let notLoaded = state.unreadNotLoaded, notLoaded > 0, notification.isRead,
      !isLoaded(notification, in: state)
    else { return }
    state.unreadNotLoaded = notLoaded - 1
  }

  /// Whether `id` is not among the unread notifications not loaded: it is in the list, or it
  /// was and its deletion is pending. (A push the backend had not listed is in the list and
  /// not in the total it gave: listing it later adds it to both.)
  func isLoaded(_ notification: NotificationData, in state: State) -> Bool {
    state.notifications.contains(id: notification.id)
      || state.sync.isDeletionPending(of: notification)
  }
}
