/// Where the action a store's reducer is reducing came from, so that a runtime issue about it
/// (an action for a child that is not presented, an element already popped) can name its
/// sender as well as the action: the store (`store.send`, from a view or a test), or an effect
/// (its `.run`'s line, and the action whose reducer returned it).
///
/// Known in debug builds only: a store binds it around its reducer then, and keeps the origin
/// of every action an effect sends, which a release build does not pay for (an app's store
/// keeps no origins, see ``EffectOrigin``). Outside a store's reducer it is `nil`.
package enum ActionSource: Sendable {
  /// Sent to the store from outside its reducer and effects.
  case store
  /// Sent by an effect.
  case effect(any ActionOriginDescribing)

  /// The source of the action being reduced, where a store says.
  @TaskLocal package static var current: ActionSource?

  /// The sentence a runtime issue about the action being reduced ends with, or an empty
  /// string when its source is not known.
  package static var sentence: String {
    switch current {
    case nil: ""
    case .store?: "\n\nIt was sent to the store (store.send: from a view, or a test)."
    case .effect(let origin)?: "\n\n\(origin.sentSentence)"
    }
  }
}

/// An effect's origin, as the sentence that names it in a runtime issue.
package protocol ActionOriginDescribing: Sendable {
  var sentSentence: String { get }
}

extension EffectOrigin: ActionOriginDescribing {
  package var sentSentence: String {
    guard !fileID.isEmpty else {
      return "It was sent by a .send effect, returned for:\n\n  \(action)"
    }
    return "It was sent by the effect at \(fileID):\(line), returned for:\n\n  \(action)"
  }
}

/// Runs `reduce` with `origin` bound as the source of the action it reduces (debug builds).
/// Not inlinable: binding a task-local is out of the send path's way in a release build, which
/// never calls this.
@usableFromInline
func _reducing<Action: Sendable, Result>(
  from origin: EffectOrigin<Action>?, _ reduce: () -> Result
) -> Result {
  ActionSource.$current.withValue(origin.map { .effect($0) } ?? .store, operation: reduce)
}
