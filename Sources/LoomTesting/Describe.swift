import Loom

// How failure messages describe values, actions and effects. Free functions, not isolated to
// the main actor: the end-of-test checks also run from a deinit off the main actor.

/// A one-line description of a value for failure messages.
@usableFromInline
func describe<T>(_ value: T) -> String {
  loomDump(value)
    .split(separator: "\n")
    .map { $0.drop(while: { $0 == " " }) }
    .joined(separator: " ")
}

/// A minimal readable diff between what the test expected and what happened.
@usableFromInline
func diff<T>(_ expected: T, _ actual: T) -> String {
  loomDiff(expected, actual, format: .testStore)
    ?? "(the values differ only in ways their dump does not show)"
}

/// ` (sent by .send from .a, which came from .b)`: where a received action came from.
@usableFromInline
func describeOrigin<Action>(_ origin: EffectOrigin<Action>) -> String {
  let source =
    origin.line == 0
    ? "sent by .send from \(describe(origin.action))"
    : "from an effect of \(describe(origin.action)) at \(origin.fileID):\(origin.line)"
  return " (\(source)\(describeAncestors(of: origin)))"
}

/// `, which came from .b ← .a`: the actions that led to the one that started `origin`, most
/// recent first; empty when a test sent it.
func describeAncestors<Action>(of origin: EffectOrigin<Action>) -> String {
  let ancestors = origin.chain.dropFirst().map { describe($0.action) }
  return ancestors.isEmpty ? "" : ", which came from \(ancestors.joined(separator: " ← "))"
}

/// One line per action, with where it came from.
@usableFromInline
func describeReceived<Action>(_ received: [(action: Action, origin: EffectOrigin<Action>)])
  -> String
{
  received.map { "  • \(describe($0.action))\(describeOrigin($0.origin))" }
    .joined(separator: "\n")
}

/// One line per effect: the action that started it, where, what led to it, and what it waits on.
func describeEffects<Action>(_ effects: [InFlightEffect<Action>]) -> String {
  effects.map { effect in
    let origin = effect.origin
    let location = origin.line == 0 ? "" : " at \(origin.fileID):\(origin.line)"
    let history = describeAncestors(of: origin)
    let status =
      if effect.isCancelled {
        " (cancelled, still stopping)"
      } else if let reason = effect.waitingOn {
        " (waiting on \(reason.description))"
      } else {
        ""
      }
    return "  • an effect of \(describe(origin.action))\(location)\(history)\(status)"
  }
  .joined(separator: "\n")
}
