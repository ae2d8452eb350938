import Foundation
import Loom
import NotificationClients
import Notifications
import Testing

/// Lives a whole app lifetime with the notification center, at random, and compares it with a
/// plain reference model (``LifetimeReferenceModel``) after every step.
///
/// Actions interleave: each step sends a few actions without waiting for them, then lets time
/// pass on a test clock by a random amount, so the calls they start (each waiting a random time,
/// see ``LifetimeNetwork``) and the settings' reads and writes (``LifetimeSettings``) finish in a
/// random order. Steps refresh, load more (and refresh twice, the pages answered out of order),
/// mark read and unread, delete, mark all, clear all, receive pushes (new ones, ones without a
/// timestamp, duplicates, and ones the backend lists later), change the backend from another
/// device, drop the live stream, relaunch (a new store from the saved settings and the same
/// backend) or kill the app (what is being written is lost), launch nine times offline, change
/// the filter and the muted types, record local notices, go to the background and back, set the
/// device's clock off the backend's (``LifetimeClocks``), replace the device token
/// (``LifetimeTokens``), and turn faults on and off (retryable and permanent failures, latency).
/// A launch races what it restores: the app may open from a tapped push, receive a push before
/// `onAppear`, or take a filter pick, a change or a preference while the saved ones load.
///
/// After every step: no id listed twice, newest first, nothing the person deleted listed again
/// and no read change undone unless an error was reported since, every push shown and local
/// notice still listed, no banner for a muted type. Every so often and at the end the faults
/// stop and everything drains: before a refresh the list and the unread count must agree with
/// the backend; after one, with every page loaded, the whole list must be the backend's feed
/// (plus the pushes it has not listed yet, and the local notices) with the backend's unread
/// count; and what is saved (the outbox, the pushes and notices, the filter, the muted types)
/// and the token backend must match (see `Lifetime+Converge.swift`). Each known bug of today's
/// engine (the section "Known bugs" below) is forgiven, exactly, while its flag is false.
///
/// CI runs fixed seeds. More, random ones: `LOOM_MODEL_SEEDS=500 swift test --filter
/// LifetimeModelTests`. A failure names its seed and the steps before it; replay one seed, with
/// every step printed: `LOOM_MODEL_TRACE=<seed> swift test --filter LifetimeModelTests`.
///
/// A seed replays identically: everything runs on the main actor and time passes only on the
/// test clock (see ``Lifetime``). `LOOM_MODEL_DIGEST=1` prints a digest of each seed's run (its
/// steps, what the person saw after each, and every action the stores processed); two runs of
/// a seed print the same digest. (That needs `NotificationClient`'s and `SettingsClient`'s
/// endpoints to run on their caller's executor, `nonisolated(nonsending)`: while they are plain
/// `async` closures, each call leaves the main actor and comes back when the machine lets it,
/// and the same seed can take another path.)
@MainActor
struct LifetimeModelTests {
  /// Whether a push the backend has not listed yet is still listed after a relaunch: the
  /// feature saves such pushes through the settings client (`SavedPushes`).
  static let pushesSurviveRelaunch = true
  /// Whether two changes to one notification in flight at once (mark unread, then mark all
  /// read before the first is confirmed) end as the person's last choice: a newer change waits
  /// for the older one's call, see `ChangeOrderTests`.
  static let changesToOneNotificationApplyInOrder = true
  /// Whether a push received while a clear-all waits in the outbox (after a retryable
  /// failure) is listed, and kept by the backend when the entry is sent: a queued clear-all
  /// deletes only what the person cleared, up to the newest notification listed then
  /// (`OutboxEntry.deleteAll(upTo:)`, issue #13).
  static let aQueuedClearAllSparesNewerNotifications = true

  /// Whether the catch-up after a reconnect leaves alone what a first page loaded meanwhile
  /// already reflects: a page carries the cursor of the change it reflects
  /// (`NotificationPage.changeCursor`), so the catch-up replays only what came after it; before,
  /// a replayed update of a notification past the first page took it out of the unread
  /// notifications not loaded a second time (see `CatchUpReplayTests`). While off, converging
  /// lets the catch-up of a reconnect finish before it refreshes.
  static let aCatchUpSkipsWhatANewerPageHas = true

  // MARK: Known bugs (issue #24)
  //
  // Each flag below guards one behaviour of today's sync engine that the lifetime finds wrong.
  // While a flag is false the test forgives exactly that behaviour (or does not generate the
  // step that shows it); the rewrite of issue #24 turns it true. Each names a seed that fails
  // with it alone turned true (`LOOM_MODEL_TRACE=<seed>`), or says that none was found. Until the
  // clients' endpoints are `nonisolated(nonsending)` a seed's path depends on the machine (see
  // the type's comment), so a seed named here fails in most runs, not necessarily in every one.

  /// Whether a launch that begins with a tapped push, a push or a local notice (a cold start from a
  /// notification) keeps the pushes and notices earlier launches saved. Today the write of the new
  /// push's saved pushes replaces them before the launch has read them (issue #24, item 1).
  /// Seed: 1.
  static let aColdStartKeepsTheSavedPushes = false
  /// Whether a filter the person picks while the launch loads the saved one stays. Today the saved
  /// filter, loaded after, replaces it (issue #24, item 5). Seed: 10.
  static let aFilterPickedWhileTheSavedOneLoadsStays = false
  /// Whether a change the person makes before the launch has read the saved outbox keeps what the
  /// outbox held. Today the write of the new change's outbox replaces it (issue #24, item 5). No
  /// seed found yet: none of the 61 CI seeds, nor 400 random ones, failed with it turned true; it
  /// needs a saved outbox that is not empty at a launch (after a launch offline or retryable
  /// faults) and a change made before a slow read of it finishes.
  static let aChangeQueuedAtLaunchKeepsTheSavedOutbox = false
  /// Whether a push received before `onAppear` is announced only if its type is not muted. Today
  /// the muted types are not loaded yet, and it is announced (issue #24, item 5). Seed: 1.
  static let aPushBeforeOnAppearRespectsTheMutedTypes = false
  /// Whether a type muted or unmuted while the launch loads the saved muted types keeps the others
  /// the person muted. Today the change is made to the types muted before the load, and the load is
  /// then ignored (issue #24: "everything persisted is restored before any action can write it").
  /// Seed: 2.
  static let aPreferenceChangedWhileTheSavedOnesLoadKeepsTheOthers = false
  /// Whether a push received while a clear-all waits is listed whatever the device's and the
  /// backend's clocks say. Today a clear-all is bounded by the time of the newest notification it
  /// cleared, and a push is compared with it: with a push the device stamped with its own time in
  /// the list (one that came without a timestamp, or with one more than a day after the device's
  /// time), a newer push can be older than the bound, and is hidden (issue #24, item 6: "clear-all
  /// is bounded by a server cursor, never by comparing device and server clocks"). Seed: 1.
  static let aClearAllIsBoundedByAServerCursor = false
  /// Whether a local notice stays read (and out of the unread count) when the person marks it
  /// unread. Today it can be made unread and counts (issue #24, item 6). Seed: 1.
  static let aLocalNoticeIsNeverUnread = false
  /// Whether the push of a notification the person deleted, delivered again after a relaunch,
  /// leaves it deleted. Today it is listed again (issue #24, item 6); while false the step is not
  /// generated. Seed: 7.
  static let aDeletedNotificationStaysDeletedWhenItsPushComesAgain = false
  /// Whether a change queued offline outlives nine launches offline. Today each launch counts as an
  /// attempt, and the change is given up after eight (issue #24, item 4). Seed:
  /// 14327596062002008173.
  static let launchesDoNotCountAsAttempts = false
  /// Whether a first page answered after a newer one (two refreshes answered out of order) leaves
  /// the list as the newer one has it. Today the older page is applied last: a notification another
  /// device deleted between the two is listed again until a refresh (issue #24: what the person
  /// sees is the server's truth, newest by cursor). Seed: 28.
  static let aPageAnsweredLateDoesNotUndoANewerOne = false
  /// Whether a launch restores the saved outbox before it lists a page or takes a change. Today the
  /// first page can be listed before the saved outbox is read, listing what the changes queued by
  /// an earlier launch undo (a deleted notification, a read one unread) until they are sent; and a
  /// change made before it is read is undone when the older queued change for the same notification
  /// is sent after it (issue #24, item 5: "everything persisted is restored before any action can
  /// write it"). Seed: 1271703708021520443, a rare one (it failed in 2 of 7 runs): a read queued
  /// before a kill, and the first page of the next launch lists the push unread before the outbox
  /// is read. None of the 61 CI seeds failed with it turned true.
  static let aLaunchRestoresTheSavedOutboxFirst = false
  /// Whether the push of a notification the backend has (one opened from its push at launch, before
  /// the feed listed it) becomes the backend's notification: what the person does to it reaches the
  /// backend, and it is not saved as a push. Today an unread made before the feed lists it stays
  /// here (only a read is told), and a copy an answer stamped with a newer version than the feed's
  /// is kept as a push for good, saved with the pushes, its changes never sent (issue #24: pushes
  /// the feed has not listed are part of the same model). Seed: 32.
  static let aPushOfANotificationTheBackendHasBecomesTheBackends = false
  /// Whether the saved pushes are the pushes listed that the backend has not listed, no more. Today
  /// a restore that leaves a saved push out (a refresh's page listed it before the saved pushes
  /// were read, or a clear-all restored from the outbox covers it) writes nothing, and the saved
  /// pushes keep it, to be restored again at the next launch (issue #24: persisted as transactions,
  /// what is shown recomputed from what is saved). No seed found yet: none of the 61 CI seeds, nor
  /// 400 random ones, failed with it turned true.
  static let theSavedPushesAreThePushesListed = false
  /// Whether, once everything has drained, the token backend holds the current device token and no
  /// other. A token replaced while its upload was answered stayed registered (the new upload
  /// cancelled the old one's effect, not its call), and an upload gave up silently after five
  /// failures (issue #24, item 6; seed 2), until `PushRegistrationFeature` made one call at a
  /// time, chosen from which token is wanted and which the backend holds, and retried without
  /// giving up. Seed 39 failed on a first version that did not save an upload's token before
  /// the call (the app was killed after the backend took it, before the answer).
  static let theTokenBackendEndsWithTheCurrentTokenOnly = true
  /// Whether the list and the unread count agree with the backend without a refresh: once
  /// everything has drained with the live stream connected, before any refresh, and after loading
  /// every page since the last one. Today some disagreements last until a refresh (see
  /// `NotificationsFeature+UnreadTotal.swift`; issue #24: the oracle "does not forgive a
  /// disagreement that lasts until a refresh"). Seed: 17.
  static let theListAndCountAgreeWithoutARefresh = false
  /// Whether, once everything has converged (refreshed, every page loaded), the list holds no
  /// notification the backend no longer has. Today one can stay: CI's run of seed 51 (at
  /// afe1d68 and 07bfffd) ended listing `other37`, which another device inserted and the
  /// backend no longer had, after two refreshes; random seeds 6711653436005868070 and
  /// 7778406170627082431 failed the same way once each in 400. None of them fails again run
  /// alone: the digests of a few seeds still differ between runs (1 to 2 of 61 per run), so the
  /// path that shows it is not replayed yet. While false, such notifications are left out of
  /// the comparison, and only they; the rewrite of #24 turns it true.
  static let aNotificationTheBackendNoLongerHasIsNotListedOnceConverged = false

  nonisolated static var seeds: [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["LOOM_MODEL_TRACE"].flatMap(UInt64.init) { return [seed] }
    if let count = environment["LOOM_MODEL_SEEDS"].flatMap(Int.init) {
      var system = SystemRandomNumberGenerator()
      return (0..<count).map { _ in system.next() }
    }
    return Array(1...60) + knownSeeds
  }

  /// Seeds that once failed, run on every CI. 14327596062002008173: a replayed "unread" older
  /// than a confirmed mark-all showed the notification unread, until answers and pages were
  /// ordered by cursor (issue #23).
  nonisolated static let knownSeeds: [UInt64] = [14_327_596_062_002_008_173]

  @Test(arguments: seeds)
  func aLifetimeOfInterleavedActionsKeepsTheModelsInvariantsAndConverges(seed: UInt64) async {
    let environment = ProcessInfo.processInfo.environment
    let tracing = environment["LOOM_MODEL_TRACE"] == "\(seed)"
    let life = Lifetime(
      seed: seed, tracing: tracing, digesting: environment["LOOM_MODEL_DIGEST"] == "1")
    await life.live(steps: 150)
  }
}
