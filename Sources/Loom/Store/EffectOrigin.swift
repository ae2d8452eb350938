/// Where an in-flight effect came from: the action whose reducer returned it and the source
/// line of the `.run` that created it.
///
/// The actions before it form an immutable chain shared by every origin that descends from the
/// same one, so linking a new origin costs one allocation and never copies the chain. A store
/// links origins only when a test store watches it (``RootCore``'s `tracksProvenance`): an app
/// never reads the chain, and a chain of `.send`s then allocates nothing.
@usableFromInline
package struct EffectOrigin<Action: Sendable>: Sendable {
  /// The action whose reducer returned the effect.
  @usableFromInline package let action: Action
  /// The `#fileID` of the `.run` call, empty for synchronous `.send` effects.
  package var fileID: String { fileIDLiteral.description }
  /// Kept as the literal: building a string for every effect started would cost an allocation.
  @usableFromInline let fileIDLiteral: StaticString
  /// The `#line` of the `.run` call, 0 for synchronous `.send` effects.
  @usableFromInline package let line: UInt
  /// Where the action that started the effect came from, if an effect sent it.
  @usableFromInline package let parent: Parent?

  /// How many of the actions before this one ``chain`` names.
  package static var maximumChainLength: Int { 8 }

  /// Boxes the parent origin (a struct cannot contain itself), with the length of its chain.
  @usableFromInline
  package final class Parent: Sendable {
    package let origin: EffectOrigin
    /// The number of origins from `origin` back to the oldest one kept, `origin` included.
    let depth: Int

    init(_ origin: EffectOrigin, depth: Int) {
      self.origin = origin
      self.depth = depth
    }
  }

  /// Inlinable, so that starting an effect does not look up the origin's generic metadata.
  @inlinable
  init(action: Action, fileID: StaticString, line: UInt, parent: EffectOrigin? = nil) {
    self.action = action
    self.fileIDLiteral = fileID
    self.line = line
    if let parent {
      self.parent = Self.link(parent)
    } else {
      self.parent = nil
    }
  }

  private init(action: Action, fileID: StaticString, line: UInt, linkedTo parent: Parent?) {
    self.action = action
    self.fileIDLiteral = fileID
    self.line = line
    self.parent = parent
  }

  /// Boxes `origin` as a parent. A chain that grows past twice ``maximumChainLength`` is cut back
  /// to ``maximumChainLength``, so a retry loop that runs for hours keeps a bounded chain, and the
  /// cut (which copies that many origins) happens once every ``maximumChainLength`` links.
  @usableFromInline
  static func link(_ origin: EffectOrigin) -> Parent {
    let depth = (origin.parent?.depth ?? 0) + 1
    guard depth > 2 * maximumChainLength else { return Parent(origin, depth: depth) }
    let kept = origin.chain
    var parent: Parent?
    for (index, ancestor) in kept.enumerated().reversed() {
      let origin = EffectOrigin(
        action: ancestor.action, fileID: ancestor.fileIDLiteral, line: ancestor.line,
        linkedTo: parent)
      parent = Parent(origin, depth: kept.count - index)
    }
    return parent ?? Parent(origin, depth: 1)
  }

  /// This origin and the ones before it, most recent first: at most ``maximumChainLength`` + 1.
  package var chain: [EffectOrigin] {
    var result = [self]
    var next = parent
    while let current = next, result.count <= Self.maximumChainLength {
      result.append(current.origin)
      next = current.origin.parent
    }
    return result
  }
}
