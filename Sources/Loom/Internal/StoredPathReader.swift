/// Reads the value at a key path of a value, from its offset when the key path names stored
/// properties only (the value is stored inline there, `MemoryLayout.offset(of:)` says where).
///
/// Code generic over the app's types (not specialized: a store's observation, say) that
/// applies a key path calls the run time, which projects it component by component and looks
/// up metadata as it goes (~600 instructions a read); a read at an offset costs a copy of the
/// value.
@usableFromInline
package struct StoredPathReader<Root, Value> {
  @usableFromInline let keyPath: KeyPath<Root, Value>
  /// Where the value is stored in a root, if it is stored inline.
  @usableFromInline let offset: Int?

  @inlinable
  package init(_ keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Whether it reads at an offset (the key path names stored properties only).
  package var readsAtOffset: Bool { offset != nil }

  /// Calls `body` with the value in `root`, in place when it is stored inline (no copy of it).
  @inlinable
  package func withValue<Result>(
    in root: Root, _ body: (UnsafePointer<Value>) -> Result
  ) -> Result {
    guard let offset else { return withUnsafePointer(to: root[keyPath: keyPath], body) }
    return withUnsafePointer(to: root) { pointer in
      // As in `read(_:)`, which does not call this: through the closure, a read in code
      // generic over the app's types cost ~40 instructions more (W9b +1.8%).
      body(UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self))
    }
  }

  @inlinable
  package func read(_ root: Root) -> Value {
    guard let offset else { return root[keyPath: keyPath] }
    return withUnsafePointer(to: root) { pointer in
      // `offset(of:)` gave an offset: the key path names stored properties of structs (and
      // tuples) only, so a `Value` is stored, initialized and bound to its type, at that offset
      // of the root, for as long as the root is borrowed here.
      UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
    }
  }
}
