/// A store's observation as the store it was scoped from sees it: something to check after each
/// batch of actions while any of its watches is armed.
///
/// Readers are told of a change only when a value they read changed. A store keeps one watch
/// per value its readers read (a field, the whole state, which part is there, the ids of its
/// rows); reading a value arms its watch, and the root store checks the armed watches after each
/// batch of actions, notifying and disarming those whose value changed, as the readers they told
/// stop observing. A store with armed watches, or with a scoped store that has some, is attached
/// to the store it was scoped from, up to the root; the stores of rows are attached to their
/// parent by id, so a batch checks only the rows it wrote (see `ElementWrites`).
@MainActor
protocol ObservedPart: AnyObject {
  /// Whether it is attached to the store it was scoped from (or, for the root, to its core).
  var isAttached: Bool { get set }
  /// Whether its store is alive.
  var isAlive: Bool { get }

  /// Checks the armed watches against the state now, adding those whose value changed to
  /// `changed` (and disarming them); returns whether anything in it is still armed.
  func check(into changed: inout [WatchChange]) -> Bool

  /// Adds every armed watch to `changed` and disarms it: for a store whose part has gone.
  func disarmAll(into changed: inout [WatchChange])
}

/// A root core, to which its root store's observation attaches.
@MainActor
protocol ObservationRoot: AnyObject {
  func observe(_ observation: any ObservedPart)
}

/// A store, to which the observations of the stores scoped from it attach.
@MainActor
protocol ObservationParent: AnyObject {
  func attach(part: any ObservedPart)
}

extension Store: ObservationParent {
  func attach(part: any ObservedPart) {
    observation.attach(part: part)
  }
}
